/**
 * `tsx scripts/make-migration.ts <name>`: diffs the entities against a scratch database migrated
 * to the latest committed migration and writes the difference as a new migration in migrations/.
 * Review it, then add it to migrations/index.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createOrm } from '../db/orm.js';
import { startEmbeddedPostgres } from '../platform/postgres.js';
import { freePort } from '../platform/temporal-server.js';

const name = process.argv[2] ?? 'change';
const dir = mkdtempSync(path.join(os.tmpdir(), 'ivs-migrate-'));
const pgServer = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port: await freePort(), database: 'scratch' });
try {
  const orm = await createOrm(pgServer.url);
  await orm.migrator.up();
  const result = await orm.migrator.create(path.resolve('migrations'), false, false, name);
  console.log(result.fileName ? `wrote migrations/${result.fileName}` : 'no changes');
  await orm.close();
} finally {
  await pgServer.stop();
  rmSync(dir, { recursive: true, force: true });
}
