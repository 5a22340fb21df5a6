import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZApiKeyView, ZBranding, ZCreateKeyBody, ZCreatedKey, ZProblem, ZProjectKeyParams, ZProjectParams, ZWebhookPutBody, ZWebhookPutResponse, ZWebhookView,
} from '../../domain/api-schemas.js';
import { ApiKey } from '../../db/entities/index.js';
import { createApiKey, viewKey } from '../../services/api-keys.js';
import { setWebhook } from '../../services/projects.js';
import { previousSecretsExpireAt } from '../../services/webhook-secrets.js';
import { assertOwnProject, requireApiKey } from '../plugins/api-key-auth.js';

const security = [{ apiKey: [] }];
const errs = { 400: ZProblem, 401: ZProblem, 404: ZProblem, 422: ZProblem };

/** Project-scoped routes with the project's own key (the dashboard session reaches the same services later). */
export async function projectRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.addHook('preHandler', requireApiKey);
  app.addHook('preHandler', async (req) => {
    const params = req.params as { project_id?: string };
    if (params.project_id) assertOwnProject(req, params.project_id);
  });

  app.get('/v1/projects/:project_id/keys', {
    schema: { tags: ['projects'], summary: 'List the project API keys (never the raw values)', security, params: ZProjectParams, response: { 200: z.object({ data: z.array(ZApiKeyView) }), ...errs } },
  }, async (req) => {
    const keys = await req.em.find(ApiKey, { projectId: req.project.id }, { orderBy: { createdAt: 'desc' } });
    return { data: keys.map(viewKey) };
  });

  app.post('/v1/projects/:project_id/keys', {
    schema: { tags: ['projects'], summary: 'Create a project key; the raw value is shown once', security, params: ZProjectParams, body: ZCreateKeyBody.optional(), response: { 201: ZCreatedKey, ...errs } },
  }, async (req, reply) => {
    const { key, raw } = await createApiKey(req.em, req.project, req.body?.name ?? 'unnamed');
    return reply.code(201).send({ ...viewKey(key), api_key: raw });
  });

  app.delete('/v1/projects/:project_id/keys/:key_id', {
    schema: { tags: ['projects'], summary: 'Revoke a project key (idempotent)', security, params: ZProjectKeyParams, response: { 204: z.null(), ...errs } },
  }, async (req, reply) => {
    const key = await req.em.findOne(ApiKey, { id: req.params.key_id, projectId: req.project.id });
    if (key && !key.revokedAt) {
      key.revokedAt = new Date();
      await req.em.flush();
    }
    return reply.code(204).send(null);
  });

  app.get('/v1/projects/:project_id/branding', {
    schema: { tags: ['projects'], summary: 'Hosted-page branding', security, params: ZProjectParams, response: { 200: ZBranding, ...errs } },
  }, async (req) => (req.project.branding ?? {}) as z.infer<typeof ZBranding>);

  app.put('/v1/projects/:project_id/branding', {
    schema: { tags: ['projects'], summary: 'Set hosted-page branding (replaces it)', security, params: ZProjectParams, body: ZBranding, response: { 200: ZBranding, ...errs } },
  }, async (req) => {
    req.project.branding = { ...req.body };
    req.project.updatedAt = new Date();
    await req.em.flush();
    return req.body;
  });

  app.get('/v1/projects/:project_id/webhook', {
    schema: { tags: ['projects'], summary: 'Webhook config (the secret is never returned)', security, params: ZProjectParams, response: { 200: ZWebhookView, ...errs } },
  }, async (req) => ({ url: req.project.webhookUrl ?? null, include_result: req.project.webhookIncludeResult, secret_set: Boolean(req.project.webhookSecretEnc), previous_secret_expires_at: previousSecretsExpireAt(req.project) }));

  app.put('/v1/projects/:project_id/webhook', {
    schema: { tags: ['projects'], summary: 'Set the webhook URL; the signing secret is minted on first set or with regenerate, and returned that once', security, params: ZProjectParams, body: ZWebhookPutBody, response: { 200: ZWebhookPutResponse, ...errs } },
  }, async (req) => setWebhook(req.em, req.deps.config, req.project, req.body));

  app.delete('/v1/projects/:project_id/webhook', {
    schema: { tags: ['projects'], summary: 'Clear the webhook URL (the secret is kept)', security, params: ZProjectParams, response: { 204: z.null(), ...errs } },
  }, async (req, reply) => {
    req.project.webhookUrl = null;
    req.project.updatedAt = new Date();
    await req.em.flush();
    return reply.code(204).send(null);
  });
}
