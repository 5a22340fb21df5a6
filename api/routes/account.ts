import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZLegacyWebhookBody, ZLegacyWebhookResponse, ZMe, ZProblem, ZRotateResponse, ZSignupBody, ZSignupResponse } from '../../domain/api-schemas.js';
import { rotateApiKey } from '../../services/api-keys.js';
import { setOwnWebhook } from '../../services/project-settings.js';
import { describeProject, signupSandbox } from '../../services/projects.js';
import { requireApiKey } from '../plugins/api-key-auth.js';

const errors = { 400: ZProblem, 401: ZProblem, 403: ZProblem, 422: ZProblem };

export async function accountRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post('/v1/signup', {
    schema: { tags: ['account'], summary: 'Create a sandbox project and its first API key (not in production)', body: ZSignupBody.optional(), response: { 201: ZSignupResponse, ...errors } },
  }, async (req, reply) => {
    const { project, org, rawKey } = await signupSandbox(req.em, req.deps.config, req.body?.name);
    return reply.code(201).send({ project_id: project.id, org_id: org.id, name: project.name, sandbox: true as const, api_key: rawKey });
  });

  app.get('/v1/me', {
    preHandler: requireApiKey,
    schema: { tags: ['account'], summary: 'The calling project', security: [{ apiKey: [] }], response: { 200: ZMe, 401: ZProblem } },
  }, async (req) => describeProject(req.em, req.principal));

  app.post('/v1/keys/rotate', {
    preHandler: requireApiKey,
    schema: { tags: ['account'], summary: 'Replace the calling key; the old key stops working at once', security: [{ apiKey: [] }], response: { 200: ZRotateResponse, 401: ZProblem } },
  }, async (req) => rotateApiKey(req.em, req.principal));

  // Legacy tenant-level webhook: the project is the tenant, so this sets (or clears) the project webhook.
  app.post('/v1/webhook', {
    preHandler: requireApiKey,
    schema: {
      tags: ['account'], summary: 'Legacy: set or clear the webhook URL (prefer PUT /v1/projects/{project_id}/webhook)', deprecated: true, security: [{ apiKey: [] }],
      body: ZLegacyWebhookBody, response: { 200: ZLegacyWebhookResponse, ...errors },
    },
  }, async (req) => setOwnWebhook(req.em, req.deps.config, req.principal, req.body.url));
}
