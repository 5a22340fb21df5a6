/** `npm run grant-owner -- <email> <org id or project id>`: operator grant of the owner role (DATABASE_URL). */
import { createOrm } from '../db/orm.js';
import { loadConfig } from '../platform/config.js';
import { grantOwner } from '../services/grant-owner.js';

const [email, target] = process.argv.slice(2);
if (!email || !target) {
  console.error('usage: npm run grant-owner -- <email> <org id or project id>');
  process.exit(2);
}
const config = loadConfig();
if (!config.databaseUrl) throw new Error('set DATABASE_URL (npm start prints it; embedded default postgresql://postgres:postgres@127.0.0.1:54329/ivs)');
const orm = await createOrm(config.databaseUrl);
try {
  const r = await grantOwner(orm.em.fork(), email, target);
  console.log(`${email} is now an owner of ${r.orgId}`);
} finally {
  await orm.close();
}
