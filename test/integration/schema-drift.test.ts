import { describe, expect, it } from 'vitest';
import { createOrm } from '../../db/orm.js';
import { MIGRATIONS } from '../../migrations/index.js';
import { sql, stack } from '../helpers.js';

/** What the entities would still change on a database: MikroORM's schema diff, as SQL. */
async function driftOf(databaseUrl: string): Promise<string> {
  const orm = await createOrm(databaseUrl);
  try {
    return (await orm.schema.getUpdateSchemaSQL({ wrap: false, safe: false, dropTables: true })).trim();
  } finally {
    await orm.close();
  }
}

describe('schema drift: the committed migrations produce the entities\' schema', () => {
  it('the schema generator finds nothing to change on the database the migrations built', async () => {
    // The global setup migrated this real PostgreSQL with every committed migration.
    expect(await driftOf(stack().databaseUrl)).toBe('');
  });

  it('and it does find a difference when a migration is missing (the check can fail)', async () => {
    const name = `drift_probe_${Date.now()}`;
    await sql(`create database ${name}`);
    const url = new URL(stack().databaseUrl);
    url.pathname = `/${name}`;
    try {
      const orm = await createOrm(url.toString());
      await orm.migrator.up({ to: MIGRATIONS[MIGRATIONS.length - 2]!.name });
      await orm.close();
      expect(await driftOf(url.toString())).toMatch(/create table "flow/);
    } finally {
      await sql(`drop database if exists ${name} with (force)`);
    }
  });
});
