import { createOrm } from '../db/orm.js';
import { createLocalBlobStore } from '../platform/blob-store.js';
import { loadConfig } from '../platform/config.js';
import { createLogger } from '../platform/logger.js';
import { createTemporalClient } from '../platform/temporal-client.js';
import { createCaptureAdvisor, createLivePreviewer } from '../engine/capture-advice.js';
import { buildApp } from './app.js';

/** The API process: listens, and closes everything on SIGINT/SIGTERM. */
const config = loadConfig();
const log = createLogger(config.logLevel, 'api');
if (!config.databaseUrl) throw new Error('DATABASE_URL is required for the api');
const orm = await createOrm(config.databaseUrl);
const temporal = await createTemporalClient(config.temporal);
// The quick document-photo check runs in this process (the answer is due within the upload
// request); its OCR worker starts in the background so the first upload does not wait for it.
const advisor = createCaptureAdvisor({ deadlineMs: config.captureAdvice.deadlineMs });
void advisor.warm().then((ok) => { if (!ok) log.warn('capture advice unavailable: MRZ model missing or altered'); });
// The hosted page's live preview check (faces in a small preview frame) runs here too, for the same reason.
const previewer = createLivePreviewer();
void previewer.warm().then((ok) => { if (!ok) log.warn('live preview unavailable: face detector model missing or altered'); });
const app = await buildApp({ config, orm, temporal: temporal.client, blobs: createLocalBlobStore(config.blobDir, config.blobKey), log, advisor, previewer });
app.addHook('onClose', async () => {
  await advisor.close();
  await previewer.close();
  await temporal.close();
  await orm.close();
});
await app.listen({ port: config.port, host: config.host });
log.info({ port: config.port }, 'api listening');
process.send?.({ ready: true });

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
