import type { FastifyInstance } from 'fastify';
import { buildApp } from '../api/app.js';
import { createOrm } from '../db/orm.js';
import { createLocalBlobStore } from '../platform/blob-store.js';
import { loadConfig, type AppConfig } from '../platform/config.js';
import { createLogger } from '../platform/logger.js';
import { createTemporalClient } from '../platform/temporal-client.js';
import { stack } from './helpers.js';

/**
 * An in-process app on the test stack's real database and Temporal server, with config overrides:
 * for production-mode behaviour and for fault injection (e.g. a namespace that does not exist).
 */
export async function inProcessApp(env: Record<string, string> = {}): Promise<{ app: FastifyInstance; config: AppConfig; close(): Promise<void> }> {
  const s = stack();
  const config = loadConfig({ ...s.env, LOG_LEVEL: 'silent', ...env });
  const orm = await createOrm(config.databaseUrl!);
  const temporal = await createTemporalClient(config.temporal);
  const app = await buildApp({ config, orm, temporal: temporal.client, blobs: createLocalBlobStore(config.blobDir, config.blobKey), log: createLogger('silent', 'test') });
  await app.ready();
  return {
    app,
    config,
    close: async () => {
      await app.close();
      await temporal.close();
      await orm.close();
    },
  };
}
