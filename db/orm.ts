import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { ENTITIES } from './entities/index.js';
import { MIGRATIONS } from '../migrations/index.js';

/** Explicit entity and migration lists: no folder scanning, so the same config works under tsx and in bundles. */
export function ormOptions(databaseUrl: string): Options {
  return {
    clientUrl: databaseUrl,
    entities: ENTITIES,
    extensions: [Migrator],
    migrations: {
      migrationsList: MIGRATIONS,
      path: 'migrations',
      pathTs: 'migrations',
      snapshot: false,
      transactional: true,
      allOrNothing: true,
      emit: 'ts',
    },
    // Creates hold a connection across the workflow start (atomicity); size the pool above API concurrency.
    pool: { min: 2, max: Number(process.env.DATABASE_POOL_MAX ?? 30) },
    debug: false,
    allowGlobalContext: false,
    ensureDatabase: false,
  };
}

export async function createOrm(databaseUrl: string): Promise<MikroORM> {
  return MikroORM.init(ormOptions(databaseUrl));
}

export async function migrateUp(orm: MikroORM): Promise<void> {
  await orm.migrator.up();
}
