import type { FastifyInstance } from 'fastify';

export async function metaRoutes(app: FastifyInstance): Promise<void> {
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/healthz', { schema: { hide: true } }, async () => ({ ok: true }));
  app.get('/', { schema: { hide: true } }, async (_req, reply) =>
    reply.type('text/html').send(`<!doctype html><meta charset="utf-8"><title>Identity Verification Service</title>
<h1>Identity Verification Service</h1><ul><li><a href="/v1/docs">API docs</a> (<a href="/v1/openapi.json">OpenAPI 3.1</a>)</li><li><a href="/dashboard">Dashboard</a></li></ul>`),
  );
}
