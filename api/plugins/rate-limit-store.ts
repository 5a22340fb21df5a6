import type { MikroORM } from '@mikro-orm/postgresql';
import type fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';

type Store = fastifyRateLimit.FastifyRateLimitStore;
type StoreCtor = fastifyRateLimit.FastifyRateLimitStoreCtor;

/**
 * One fixed window per key, counted in PostgreSQL so that every api process shares it. The upsert
 * is a single statement: the row lock taken by `on conflict do update` serialises concurrent
 * increments of one key, and a window that has ended restarts at 1 in the same statement.
 */
const INCR_SQL = `insert into rate_limit_counters (key, count, window_ends_at)
  values (?, 1, clock_timestamp() + ? * interval '1 millisecond')
  on conflict (key) do update set
    count = case when rate_limit_counters.window_ends_at <= clock_timestamp() then 1 else rate_limit_counters.count + 1 end,
    window_ends_at = case when rate_limit_counters.window_ends_at <= clock_timestamp() then excluded.window_ends_at else rate_limit_counters.window_ends_at end
  returning count, ceil(greatest(0, extract(epoch from (window_ends_at - clock_timestamp())) * 1000))::bigint as ttl_ms`;

const READ_SQL = `select count, ceil(greatest(0, extract(epoch from (window_ends_at - clock_timestamp())) * 1000))::bigint as ttl_ms
  from rate_limit_counters where key = ? and window_ends_at > clock_timestamp()`;

export const PRUNE_SQL = `delete from rate_limit_counters where window_ends_at < clock_timestamp() - interval '1 minute'`;

/**
 * A store class for @fastify/rate-limit bound to this process's ORM connection pool. A failing
 * query is logged here: the plugin (skipOnError) then lets the request through without a word.
 */
export function postgresRateLimitStore(orm: MikroORM, log: FastifyBaseLogger): StoreCtor {
  const connection = () => orm.em.getConnection();
  const failed = (cb: (err: Error) => void) => (err: Error) => {
    log.warn({ err: err.message }, 'rate-limit store failed; request not limited');
    cb(err);
  };
  class PostgresStore implements Store {
    incr(key: string, cb: (err: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      connection()
        .execute<Array<{ count: number; ttl_ms: string }>>(INCR_SQL, [key.slice(0, 200), Math.max(1, Math.trunc(timeWindow))], 'all')
        .then((rows) => cb(null, { current: Number(rows[0]!.count), ttl: Number(rows[0]!.ttl_ms) }), failed(cb));
    }
    read(key: string, cb: (err: Error | null, result?: { current: number; ttl: number }) => void): void {
      connection()
        .execute<Array<{ count: number; ttl_ms: string }>>(READ_SQL, [key.slice(0, 200)], 'all')
        .then((rows) => cb(null, rows[0] ? { current: Number(rows[0].count), ttl: Number(rows[0].ttl_ms) } : { current: 0, ttl: 0 }), failed(cb));
    }
    // Keys carry their limiter's name (see abuse-limits.ts), so routes sharing a limiter share counts.
    child(): Store {
      return this;
    }
  }
  return PostgresStore as unknown as StoreCtor;
}
