import Fastify from 'fastify';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../platform/temporal-server.js';
import { registerProblemHandlers } from './problem.js';

describe('problem handler while PostgreSQL is down', () => {
  it('answers 503 database_unavailable with Retry-After, not 500, for a real driver error', async () => {
    const app = Fastify({ logger: false });
    registerProblemHandlers(app);
    const port = await freePort();
    app.get('/x', async () => {
      const pool = new pg.Pool({ host: '127.0.0.1', port, user: 'x', database: 'x', connectionTimeoutMillis: 2000 });
      try {
        return (await pool.query('select 1')).rows;
      } finally {
        await pool.end();
      }
    });
    app.get('/bug', async () => { throw new TypeError('a bug'); });
    const r = await app.inject({ method: 'GET', url: '/x' });
    expect(r.statusCode).toBe(503);
    expect(r.headers['content-type']).toContain('application/problem+json');
    expect(r.headers['retry-after']).toBe('5');
    expect(r.json()).toMatchObject({ status: 503, code: 'database_unavailable' });
    // other errors stay 500 internal_error
    const bug = await app.inject({ method: 'GET', url: '/bug' });
    expect(bug.statusCode).toBe(500);
    expect(bug.json().code).toBe('internal_error');
    await app.close();
  });
});
