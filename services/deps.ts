import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { AppConfig } from '../platform/config.js';
import type { BlobStore } from '../platform/blob-store.js';
import type { CaptureAdvisor } from '../domain/capture-advice.js';
import type { LivePreviewer } from '../domain/live-preview.js';

/** What business functions need; each request or activity passes its own forked EntityManager. */
export interface ServiceDeps {
  em: EntityManager;
  config: AppConfig;
  temporal: Client;
  blobs: BlobStore;
  log: Logger;
  /** The quick document-photo check (a port: the engine implements it, api/server.ts injects it); absent means advice `unavailable`. */
  advisor?: CaptureAdvisor;
  /** The live preview check of the hosted page (faces in a preview frame; same port pattern); absent means `unavailable`. */
  previewer?: LivePreviewer;
}
