import fastifyRateLimit from '@fastify/rate-limit';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from '../../domain/errors.js';
import type { AppConfig, RateLimit } from '../../platform/config.js';
import { sha256Hex } from '../../platform/crypto.js';
import { PRUNE_SQL, postgresRateLimitStore } from './rate-limit-store.js';

/**
 * Abuse limits (issue 18): fixed windows counted in PostgreSQL so that every api process shares
 * them. Each route gets at most one limiter, chosen by `limiterFor` from its URL, or named in the
 * route's options, which is how a new route opts in with one line:
 *
 *   app.post('/dashboard/auth/callback', { config: { abuseLimit: 'signIn' } }, handler)
 *
 * `config: { abuseLimit: false }` exempts a route. Counters are keyed by the limiter's name and a
 * subject: the client IP, or a sha256 prefix of the API key or capture token (never the secret).
 * Over the limit: 429 problem+json `rate_limited` with Retry-After (seconds).
 */
export type LimiterName = 'apiKey' | 'captureToken' | 'capturePreview' | 'shortLink' | 'signup' | 'signIn';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which abuse limiter guards this route (api/plugins/abuse-limits.ts); false for none. */
    abuseLimit?: LimiterName | false;
  }
}

const SIGN_IN_URL = /^\/(dashboard\/)?(auth|sign-?in|login|oauth)(\/|$)/i;

/** The default policy by URL, for routes that do not name a limiter. */
export function limiterFor(url: string): LimiterName | null {
  if (url === '/v1/signup') return 'signup';
  if (url === '/o/:token' || url.startsWith('/o/:token/')) return 'captureToken';
  if (url.startsWith('/l/:')) return 'shortLink';
  if (url === '/v1' || url.startsWith('/v1/')) return 'apiKey';
  if (SIGN_IN_URL.test(url)) return 'signIn';
  return null;
}

const digest = (raw: string) => sha256Hex(raw).slice(0, 32);

/** What each limiter counts by, and the field its 429 names. */
const SUBJECTS: Record<LimiterName, { field: string; key: (req: FastifyRequest) => string }> = {
  apiKey: {
    field: 'X-API-Key',
    key: (req) => {
      const raw = req.headers['x-api-key'];
      // Requests without a key (docs, OpenAPI, 401 probes) count per client IP, under their own limit.
      return typeof raw === 'string' && raw.length > 0 ? `api_key:${digest(raw)}` : `anonymous:${req.ip}`;
    },
  },
  captureToken: { field: 'token', key: (req) => `capture:${digest(String((req.params as { token?: string }).token ?? ''))}` },
  capturePreview: { field: 'token', key: (req) => `capture_preview:${digest(String((req.params as { token?: string }).token ?? ''))}` },
  shortLink: { field: 'ip', key: (req) => `short_link:${req.ip}` },
  signup: { field: 'ip', key: (req) => `signup:${req.ip}` },
  signIn: { field: 'ip', key: (req) => `sign_in:${req.ip}` },
};

export async function registerAbuseLimits(app: FastifyInstance, deps: { config: AppConfig; orm: MikroORM }): Promise<void> {
  const limits = deps.config.rateLimits;
  if (!limits.enabled) return;
  const limitOf = (name: LimiterName, key: string): RateLimit => (name === 'apiKey' && key.startsWith('anonymous:') ? limits.anonymous : limits[name]);

  // Runs before @fastify/rate-limit's own onRoute hook (registered next), which reads config.rateLimit.
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.config?.rateLimit !== undefined) return;
    const chosen = route.config?.abuseLimit;
    const name = chosen === false ? null : (chosen ?? limiterFor(route.url));
    route.config = { ...route.config, rateLimit: name ? limiterOptions(name) : false } as RouteOptions['config'];
  });

  const limiterOptions = (name: LimiterName) => ({
    keyGenerator: (req: FastifyRequest) => SUBJECTS[name].key(req),
    max: (_req: FastifyRequest, key: string) => limitOf(name, key).max,
    timeWindow: (_req: FastifyRequest, key: string) => limitOf(name, key).windowMs,
    errorResponseBuilder: (_req: FastifyRequest, ctx: { max: number; after: string }) =>
      new AppError('rate_limited', `Too many requests: at most ${ctx.max} in this window; retry in ${ctx.after}.`, [
        { field: SUBJECTS[name].field, code: 'rate_limited', message: `limit ${name} reached` },
      ]),
    onExceeded: (req: FastifyRequest) => req.log.warn({ limiter: name, route: req.routeOptions.url }, 'rate limit exceeded'),
  });

  await app.register(fastifyRateLimit, {
    global: false,
    hook: 'onRequest', // before the body is read: a limited upload costs no parsing
    store: postgresRateLimitStore(deps.orm, app.log),
    // A counter store that fails should not take the API down with it: the request goes on, logged.
    skipOnError: true,
  });

  // Ended windows are deleted now and then; each process prunes, the statement is idempotent.
  const prune = setInterval(() => {
    deps.orm.em.getConnection().execute(PRUNE_SQL, [], 'run').catch((err: Error) => app.log.warn({ err: err.message }, 'rate-limit prune failed'));
  }, 60_000);
  prune.unref();
  app.addHook('onClose', async () => clearInterval(prune));
}
