/** `npm run migrate`: applies pending migrations to DATABASE_URL. */
import { createOrm } from '../db/orm.js';
import { loadConfig } from '../platform/config.js';

const config = loadConfig();
if (!config.databaseUrl) throw new Error('set DATABASE_URL');
const orm = await createOrm(config.databaseUrl);
const applied = await orm.migrator.up();
console.log(applied.length ? `applied ${applied.map((m) => m.name).join(', ')}` : 'database is up to date');
await orm.close();
