import { Client, Connection } from '@temporalio/client';
import { stack } from './helpers.js';

/** A Temporal client on the test stack's server, for describing runs and fetching histories. */
export async function withTemporal<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const connection = await Connection.connect({ address: stack().temporalAddress });
  try {
    return await fn(new Client({ connection }));
  } finally {
    await connection.close();
  }
}
