import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZLegacyWebhookBody, ZLegacyWebhookResponse, ZMe, ZProblem, ZRotateResponse, ZSignupBody, ZSignupResponse } from '../../domain/api-schemas.js';
import { ApiKey, Project } from '../../db/entities/index.js';
import { createApiKey } from '../../services/api-keys.js';
import { audit } from '../../services/audit.js';
import { setWebhook, signupSandbox } from '../../services/projects.js';
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
  }, async (req) => ({ project_id: req.project.id, name: req.project.name, sandbox: req.project.sandbox, webhook_url: req.project.webhookUrl ?? null }));

  app.post('/v1/keys/rotate', {
    preHandler: requireApiKey,
    schema: { tags: ['account'], summary: 'Replace the calling key; the old key stops working at once', security: [{ apiKey: [] }], response: { 200: ZRotateResponse, 401: ZProblem } },
  }, async (req) => {
    const raw = await req.em.transactional(async (tx) => {
      const key = await tx.findOneOrFail(ApiKey, { id: req.apiKey.id });
      key.revokedAt = new Date();
      const project = await tx.findOneOrFail(Project, { id: req.project.id });
      const created = await createApiKey(tx, project, req.apiKey.name);
      await audit(tx, { kind: 'api_key', projectId: project.id, apiKeyId: req.apiKey.id }, 'key.rotated', { targetId: created.key.id });
      await tx.flush();
      return created.raw;
    });
    return { api_key: raw };
  });

  // Legacy tenant-level webhook: the project is the tenant, so this sets (or clears) the project webhook.
  app.post('/v1/webhook', {
    preHandler: requireApiKey,
    schema: {
      tags: ['account'], summary: 'Legacy: set or clear the webhook URL (prefer PUT /v1/projects/{project_id}/webhook)', deprecated: true, security: [{ apiKey: [] }],
      body: ZLegacyWebhookBody, response: { 200: ZLegacyWebhookResponse, ...errors },
    },
  }, async (req) => {
    if (req.body.url === null) {
      req.project.webhookUrl = null;
      req.project.updatedAt = new Date();
      await req.em.flush();
      return { url: null, include_result: req.project.webhookIncludeResult };
    }
    const r = await setWebhook(req.em, req.deps.config, req.project, { url: req.body.url });
    return r;
  });
}
