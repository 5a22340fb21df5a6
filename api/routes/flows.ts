import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IDEMPOTENCY_KEY_HEADER, ZFlowList, ZFlowSlugParams, ZIdempotencyHeaders, ZIntakeBody, ZIntakeResponse, ZPrimitivesRegistry, ZProblem } from '../../domain/api-schemas.js';
import { primitivesRegistry } from '../../domain/primitives.js';
import { listFlows } from '../../services/flows.js';
import { runIntake } from '../../services/intake.js';
import { requireApiKey } from '../plugins/api-key-auth.js';

export async function flowRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/v1/primitives', {
    schema: { tags: ['flows'], summary: 'Public registry of the composable verification pieces (no key needed)', response: { 200: ZPrimitivesRegistry } },
  }, async (_req, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return primitivesRegistry();
  });

  app.get('/v1/flows', {
    preHandler: requireApiKey,
    schema: { tags: ['flows'], summary: "The project's Flows with their current version", security: [{ apiKey: [] }], response: { 200: ZFlowList, 401: ZProblem } },
  }, async (req) => ({ data: await listFlows(req.em, req.principal) }));

  app.post('/v1/flows/:slug/intake', {
    preHandler: requireApiKey,
    schema: {
      tags: ['flows'], summary: 'Run a Flow: creates a Case of its current version and its link', security: [{ apiKey: [] }],
      headers: ZIdempotencyHeaders, params: ZFlowSlugParams, body: ZIntakeBody,
      response: { 201: ZIntakeResponse, 400: ZProblem, 401: ZProblem, 404: ZProblem, 409: ZProblem, 422: ZProblem, 503: ZProblem },
    },
  }, async (req, reply) => {
    const created = await runIntake(req.deps, req.principal, req.params.slug, req.body, req.headers[IDEMPOTENCY_KEY_HEADER]);
    if (created.replayed) reply.header('idempotent-replayed', 'true');
    return reply.code(201).send(created.response);
  });
}
