import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freePort } from '../platform/temporal-server.js';
import { waitingOutDatabase } from './database-wait.js';

/** A real driver error: a query to a port where no PostgreSQL listens. */
async function queryNowhere(): Promise<never> {
  const pool = new pg.Pool({ host: '127.0.0.1', port: await freePort(), user: 'x', database: 'x', connectionTimeoutMillis: 2000 });
  try {
    return (await pool.query('select 1')) as never;
  } finally {
    await pool.end();
  }
}

describe('waitingOutDatabase (a check activity during a PostgreSQL restart)', () => {
  it('runs the check again once the database answers, instead of failing it', async () => {
    let calls = 0;
    const waits: unknown[] = [];
    const result = await waitingOutDatabase(async () => {
      calls++;
      if (calls < 3) return queryNowhere();
      return 'checked';
    }, { everyMs: 20, onWait: (err) => waits.push(err) });
    expect(result).toBe('checked');
    expect(calls).toBe(3);
    expect(waits).toHaveLength(1); // reported once per outage
  });

  it('passes any other error on at once (engine faults keep their Temporal retries)', async () => {
    let calls = 0;
    await expect(waitingOutDatabase(async () => { calls++; throw new Error('model file altered'); }, { everyMs: 20 })).rejects.toThrow('model file altered');
    expect(calls).toBe(1);
  });

  it('gives up after maxWaitMs with the database error', async () => {
    let calls = 0;
    await expect(waitingOutDatabase(async () => { calls++; return queryNowhere(); }, { everyMs: 20, maxWaitMs: 100 })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(calls).toBeGreaterThan(1);
  });
});
