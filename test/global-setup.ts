import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../platform/temporal-server.js';
import { startStack } from '../scripts/stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: { apiUrl: string; standins: { googleIssuer: string; githubBase: string }; databaseUrl: string; temporalAddress: string; dataDir: string; logFile: string; env: Record<string, string> };
  }
}

/**
 * One real stack for the integration suites: a fresh PostgreSQL cluster, a Temporal dev server
 * (in memory), migrations, the api and a worker, each its own process, on free ports. Service logs
 * go to one file the tests read (PII-in-logs assertions).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ivs-test-'));
  const logFile = path.join(dataDir, 'services.log');
  const apiPort = await freePort();
  const stack = await startStack({
    dataDir,
    databaseUrl: process.env.TEST_DATABASE_URL,
    pgPort: await freePort(),
    temporalPort: await freePort(),
    apiPort,
    logFile,
    env: {
      SERVICE_MODE: 'development',
      PUBLIC_BASE_URL: `http://127.0.0.1:${apiPort}`,
      LOG_LEVEL: 'info',
      SESSION_TOKEN_TTL_SECONDS: '600',
      // Every suite signs up its own projects and signs in its own members from 127.0.0.1: per-IP
      // limits sized for the whole run.
      // test/integration/abuse-limits.test.ts starts api processes of its own with tight limits.
      RATE_LIMIT_SIGNUP: '100000/1h',
      RATE_LIMIT_ANONYMOUS: '100000/1m',
      // The dashboard suites sign in dozens of users from 127.0.0.1 within minutes, and each sign-in
      // makes several requests the sign-in limiter counts (default 30 per 10 minutes per IP).
      RATE_LIMIT_SIGN_IN: '100000/10m',
      // Capture advice answers within 2.5 s in production; this machine runs several suites at once,
      // so the tests (which check what the advice says, not how fast: bench/capture-advice.ts) wait longer.
      CAPTURE_ADVICE_DEADLINE_MS: '30000',
    },
  });
  // Suites that fork their own api or worker get the same settings, rate limits included (their
  // counters live in the shared database: a forked api with default limits would refuse signups).
  const env = Object.fromEntries(Object.entries(stack.env).filter(([k, v]) => v !== undefined && /^(DATABASE_URL|TEMPORAL_|DATA_DIR|PUBLIC_BASE_URL|SERVICE_MODE|LOG_LEVEL|SESSION_|PORT|RATE_LIMIT_|CAPTURE_ADVICE_)/.test(k))) as Record<string, string>;
  project.provide('stack', { apiUrl: stack.apiUrl, standins: { googleIssuer: stack.standins!.google.issuer, githubBase: stack.standins!.github.oauthBase }, databaseUrl: stack.databaseUrl, temporalAddress: stack.temporalAddress, dataDir, logFile, env });
  return async () => {
    await stack.stop();
    // KEEP_TEST_DATA=1 keeps the data directory and services.log for debugging.
    if (process.env.KEEP_TEST_DATA) console.log(`test data kept in ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  };
}
