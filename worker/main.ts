import { fileURLToPath } from 'node:url';
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';
import { createActivities } from '../activities/index.js';
import { createEngineRegistry } from '../activities/engines.js';
import { describeUnhonoured, unhonouredStamps } from '../activities/stamps.js';
import { publishWorkerStatus } from '../activities/worker-status.js';
import { createOrm } from '../db/orm.js';
import { createLocalBlobStore } from '../platform/blob-store.js';
import { loadConfig } from '../platform/config.js';
import { createLogger } from '../platform/logger.js';
import { temporalConnectionOptions } from '../platform/temporal-client.js';

/**
 * The worker process: Case workflows and all activities on one task queue. Stateless; run as many
 * as you need. SIGINT/SIGTERM drain in-flight tasks before exiting.
 */
const config = loadConfig();
const log = createLogger(config.logLevel, 'worker');
if (!config.databaseUrl) throw new Error('DATABASE_URL is required for the worker');

// The SDK's own lifecycle chatter stays at warn; our logs carry the Case events.
Runtime.install({ logger: new DefaultLogger('WARN') });
const orm = await createOrm(config.databaseUrl);
// Refuse to start rather than fail live Cases one by one: every engine profile and policy revision
// stamped on a non-terminal Case must be one this build has (activities/stamps.ts).
const unhonoured = await unhonouredStamps(orm.em.fork());
if (unhonoured.length > 0) {
  const message = describeUnhonoured(unhonoured);
  log.fatal({ unhonoured }, message);
  process.stderr.write(`worker refused to start: ${message}\n`);
  await orm.close();
  process.exit(78); // EX_CONFIG: a deployment problem, not a crash to restart into
}
const blobs = createLocalBlobStore(config.blobDir, config.blobKey);
const engines = createEngineRegistry(log);
const connection = await NativeConnection.connect(temporalConnectionOptions(config.temporal));
const workflowBundle = await bundleWorkflowCode({
  workflowsPath: fileURLToPath(new URL('../workflows/index.ts', import.meta.url)),
  logger: { log: () => {}, trace: () => {}, debug: () => {}, info: () => {}, warn: (m) => log.warn(m), error: (m) => log.error(m) },
});
const deps = { orm, blobs, config, log, engines };
const worker = await Worker.create({
  connection,
  namespace: config.temporal.namespace,
  taskQueue: config.temporal.taskQueue,
  workflowBundle,
  activities: createActivities(deps),
  maxConcurrentActivityTaskExecutions: 8,
  shutdownGraceTime: '10 seconds',
});
log.info({ taskQueue: config.temporal.taskQueue }, 'worker started');
process.send?.({ ready: true });
// For /readyz: this worker's engines for new Cases (started now, so the first Case is not slower).
const status = publishWorkerStatus(deps);
await worker.run();
await status.stop();
await engines.close();
await orm.close();
await connection.close();
log.info('worker stopped');
