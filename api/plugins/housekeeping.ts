import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import { PRUNE_IDEMPOTENCY_SQL } from '../../services/idempotency.js';

/**
 * Rows that only expire: idempotency keys past their 24 h window. Every api process prunes now and
 * then (the statement is idempotent); until then an expired key is simply taken over by its next use.
 */
export function registerHousekeeping(app: FastifyInstance, deps: { orm: MikroORM }, everyMs = 10 * 60_000): void {
  const prune = setInterval(() => {
    deps.orm.em.getConnection().execute(PRUNE_IDEMPOTENCY_SQL, [], 'run').catch((err: Error) => app.log.warn({ err: err.message }, 'idempotency-key prune failed'));
  }, everyMs);
  prune.unref();
  app.addHook('onClose', async () => clearInterval(prune));
}
