import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrm } from '../../db/orm.js';
import { loadConfig } from '../../platform/config.js';
import { startEmbeddedPostgres, type RunningPostgres } from '../../platform/postgres.js';
import { createTemporalClient } from '../../platform/temporal-client.js';
import { freePort } from '../../platform/temporal-server.js';
import { forkService, stopChild } from '../../scripts/stack.js';
import { findTemporalBinaries, startTemporalPostgres, type RunningTemporalPostgres } from '../../scripts/temporal-postgres.js';

/**
 * The TLS settings Temporal Cloud needs (TEMPORAL_TLS_*), against a real Temporal server on
 * PostgreSQL that requires client certificates: plaintext and certificate-less connections are
 * refused, the api's client and the worker connect with the settings. Certificates are made here
 * with openssl (a throw-away CA, valid one day).
 */
const bins = findTemporalBinaries();
if (!bins && process.env.REQUIRE_TEMPORAL_POSTGRES === '1') throw new Error('REQUIRE_TEMPORAL_POSTGRES=1 but the Temporal server is not built');

let dir: string;
let pg: RunningPostgres;
let temporal: RunningTemporalPostgres;
let worker: ChildProcess | null = null;
const SERVER_NAME = 'temporal.test';

function makeCerts(d: string) {
  const ossl = (...args: string[]) => execFileSync('openssl', args, { cwd: d, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  ossl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=ivs test CA');
  for (const [name, cn, ext] of [
    ['server', SERVER_NAME, `subjectAltName=DNS:${SERVER_NAME}\nextendedKeyUsage=serverAuth,clientAuth\n`],
    ['client', 'ivs-worker', 'subjectAltName=DNS:ivs-worker\nextendedKeyUsage=clientAuth\n'],
  ] as const) {
    writeFileSync(path.join(d, `${name}.ext`), ext);
    ossl('req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`);
    ossl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.pem`, '-days', '1', '-extfile', `${name}.ext`);
  }
  const f = (n: string) => path.join(d, n);
  return { ca: f('ca.pem'), server: { cert: f('server.pem'), key: f('server.key') }, client: { cert: f('client.pem'), key: f('client.key') } };
}

let certs: ReturnType<typeof makeCerts>;
let address: string;
const env = (extra: Record<string, string> = {}) => ({
  DATA_DIR: dir, DATABASE_URL: pg.url, TEMPORAL_ADDRESS: address, TEMPORAL_TASK_QUEUE: 'tls-test', LOG_LEVEL: 'warn',
  TEMPORAL_TLS_CA_FILE: certs.ca, TEMPORAL_TLS_SERVER_NAME: SERVER_NAME, ...extra,
});

beforeAll(async () => {
  if (!bins) return;
  dir = mkdtempSync(path.join(os.tmpdir(), 'ivs-temporal-tls-'));
  certs = makeCerts(dir);
  pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'postgres'), port: await freePort(), database: 'ivs' });
  const orm = await createOrm(pg.url);
  await orm.migrator.up();
  await orm.close();
  temporal = await startTemporalPostgres({
    databaseUrl: pg.url, port: await freePort(), build: false, logFile: path.join(dir, 'temporal.log'),
    tls: { ...certs.server, ca: certs.ca, serverName: SERVER_NAME, clientCa: certs.ca, client: certs.client },
  });
  address = temporal.address;
}, 300_000);

afterAll(async () => {
  await stopChild(worker);
  await temporal?.stop();
  await pg?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe.skipIf(!bins)('Temporal connection settings for TLS and mTLS (TEMPORAL_TLS_*)', () => {
  it('refuses plaintext and certificate-less connections; the api client and the worker connect with the settings', async () => {
    await expect((async () => {
      const c = await Connection.connect({ address, connectTimeout: 5000 });
      try {
        await c.workflowService.describeNamespace({ namespace: 'default' });
      } finally {
        await c.close();
      }
    })()).rejects.toThrow();

    const noClientCert = loadConfig(env());
    expect(noClientCert.temporal.tls).toMatchObject({ caFile: certs.ca, serverName: SERVER_NAME });
    await expect((async () => {
      const t = await createTemporalClient(noClientCert.temporal);
      try {
        await t.client.workflowService.describeNamespace({ namespace: 'default' });
      } finally {
        await t.close();
      }
    })()).rejects.toThrow();

    const withCert = env({ TEMPORAL_TLS_CERT_FILE: certs.client.cert, TEMPORAL_TLS_KEY_FILE: certs.client.key });
    const t = await createTemporalClient(loadConfig(withCert).temporal);
    try {
      const ns = await t.client.workflowService.describeNamespace({ namespace: 'default' });
      expect(ns.namespaceInfo?.name).toBe('default');

      // The worker's native connection (Rust core) with the same settings: it starts and polls.
      worker = await forkService('worker/main.ts', { ...process.env, ...withCert }, 'worker', { logFile: path.join(dir, 'worker.log') });
      const deadline = Date.now() + 60_000;
      let pollers: string[] = [];
      while (pollers.length === 0 && Date.now() < deadline) {
        const q = await t.client.workflowService.describeTaskQueue({ namespace: 'default', taskQueue: { name: 'tls-test' }, taskQueueType: 1 });
        pollers = (q.pollers ?? []).map((p) => p.identity ?? '');
        if (pollers.length === 0) await new Promise((r) => setTimeout(r, 500));
      }
      expect(pollers).toContain(`${worker.pid}@${os.hostname()}`);
    } finally {
      await t.close();
    }
  }, 300_000);

  it('refuses settings that would send credentials in the clear or half a certificate pair', () => {
    expect(() => loadConfig(env({ TEMPORAL_TLS: 'false', TEMPORAL_API_KEY: 'k' }))).toThrow(/TEMPORAL_TLS=false/);
    expect(() => loadConfig(env({ TEMPORAL_TLS_CERT_FILE: certs.client.cert }))).toThrow(/go together/);
    expect(loadConfig(env({ TEMPORAL_TLS_CA_FILE: '', TEMPORAL_TLS_SERVER_NAME: '', TEMPORAL_API_KEY: 'k' })).temporal).toMatchObject({ tls: {}, apiKey: 'k' });
    expect(loadConfig({ DATA_DIR: dir }).temporal.tls).toBeNull();
  });
});
