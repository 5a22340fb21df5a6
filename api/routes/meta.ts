import type { FastifyInstance } from 'fastify';
import { checkReadiness } from '../../services/readiness.js';

export async function metaRoutes(app: FastifyInstance): Promise<void> {
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  // Liveness: the process answers HTTP (restart it if not). Readiness: it can serve a Case now.
  app.get('/healthz', { schema: { hide: true } }, async () => ({ ok: true }));
  app.get('/readyz', { schema: { hide: true } }, async (req, reply) => {
    const r = await checkReadiness(req.deps);
    return reply.code(r.ready ? 200 : 503).header('cache-control', 'no-store').send({ status: r.ready ? 'ready' : 'not_ready', checks: r.checks });
  });
  app.get('/', { schema: { hide: true } }, async (_req, reply) =>
    reply.type('text/html').send(`<!doctype html><meta charset="utf-8"><title>Identity Verification Service</title>
<h1>Identity Verification Service</h1><ul><li><a href="/v1/docs">API docs</a> (<a href="/v1/openapi.json">OpenAPI 3.1</a>)</li><li><a href="/dashboard">Dashboard</a></li></ul>`),
  );
}
