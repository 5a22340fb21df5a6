import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { AppConfig } from '../platform/config.js';
import type { BlobStore } from '../platform/blob-store.js';
import type { EngineRegistry } from './engines.js';

/** Explicit dependencies of every activity (STYLE §10): no module-level singletons. */
export interface ActivityDeps {
  orm: MikroORM;
  blobs: BlobStore;
  config: AppConfig;
  log: Logger;
  engines: EngineRegistry;
}
