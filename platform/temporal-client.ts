import { Client, Connection } from '@temporalio/client';

export async function createTemporalClient(address: string, namespace: string): Promise<{ client: Client; close(): Promise<void> }> {
  const connection = await Connection.connect({ address });
  return { client: new Client({ connection, namespace }), close: () => connection.close() };
}
