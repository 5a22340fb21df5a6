import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './db-errors.js';
import { freePort } from './temporal-server.js';

/** A real error from the pg driver: a connection to a port where no PostgreSQL listens. */
async function refused(): Promise<unknown> {
  const client = new pg.Client({ host: '127.0.0.1', port: await freePort(), user: 'x', database: 'x', connectionTimeoutMillis: 2000 });
  return client.connect().then(() => null, (err: unknown) => err);
}

const serverError = (code: string, message: string) => Object.assign(new pg.DatabaseError(message, message.length, 'error'), { code, severity: 'FATAL' });

describe('isDatabaseUnavailable', () => {
  it('is true for a server that is not there, restarting or recovering, and for a cut connection', async () => {
    expect(isDatabaseUnavailable(await refused())).toBe(true);
    expect(isDatabaseUnavailable(serverError('57P03', 'the database system is starting up'))).toBe(true);
    expect(isDatabaseUnavailable(serverError('57P01', 'terminating connection due to administrator command'))).toBe(true);
    expect(isDatabaseUnavailable(serverError('08006', 'connection failure'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    // wrapped, as the ORM wraps driver errors
    expect(isDatabaseUnavailable(Object.assign(new Error('DriverException'), { cause: await refused() }))).toBe(true);
  });

  it('is false for faults of the request or the code', () => {
    expect(isDatabaseUnavailable(serverError('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isDatabaseUnavailable(serverError('42P01', 'relation "x" does not exist'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('cannot read properties of undefined'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });
});
