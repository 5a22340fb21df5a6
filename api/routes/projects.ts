import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZApiKeyView, ZBranding, ZCreateKeyBody, ZCreatedKey, ZProblem, ZProjectKeyParams, ZProjectParams, ZWebhookPutBody, ZWebhookPutResponse, ZWebhookView,
} from '../../domain/api-schemas.js';
import { createProjectApiKey, listApiKeys, revokeApiKey } from '../../services/api-keys.js';
import { clearWebhook, configureWebhook, getBranding, getWebhook, setBranding } from '../../services/projects.js';
import { requireApiKey } from '../plugins/api-key-auth.js';

const security = [{ apiKey: [] }];
const errs = { 400: ZProblem, 401: ZProblem, 404: ZProblem, 422: ZProblem };

/**
 * Project-scoped routes with the project's own key (the dashboard session reaches the same
 * services later). Tenancy is the services' job: a key naming another project gets 404.
 */
export async function projectRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.addHook('preHandler', requireApiKey);

  app.get('/v1/projects/:project_id/keys', {
    schema: { tags: ['projects'], summary: 'List the project API keys (never the raw values)', security, params: ZProjectParams, response: { 200: z.object({ data: z.array(ZApiKeyView) }), ...errs } },
  }, async (req) => ({ data: await listApiKeys(req.em, req.principal, req.params.project_id) }));

  app.post('/v1/projects/:project_id/keys', {
    schema: { tags: ['projects'], summary: 'Create a project key; the raw value is shown once', security, params: ZProjectParams, body: ZCreateKeyBody.optional(), response: { 201: ZCreatedKey, ...errs } },
  }, async (req, reply) => reply.code(201).send(await createProjectApiKey(req.em, req.principal, req.params.project_id, req.body?.name ?? 'unnamed')));

  app.delete('/v1/projects/:project_id/keys/:key_id', {
    schema: { tags: ['projects'], summary: 'Revoke a project key (idempotent)', security, params: ZProjectKeyParams, response: { 204: z.null(), ...errs } },
  }, async (req, reply) => {
    await revokeApiKey(req.em, req.principal, req.params.project_id, req.params.key_id);
    return reply.code(204).send(null);
  });

  app.get('/v1/projects/:project_id/branding', {
    schema: { tags: ['projects'], summary: 'Hosted-page branding', security, params: ZProjectParams, response: { 200: ZBranding, ...errs } },
  }, async (req) => getBranding(req.em, req.principal, req.params.project_id));

  app.put('/v1/projects/:project_id/branding', {
    schema: { tags: ['projects'], summary: 'Set hosted-page branding (replaces it)', security, params: ZProjectParams, body: ZBranding, response: { 200: ZBranding, ...errs } },
  }, async (req) => setBranding(req.em, req.principal, req.params.project_id, req.body));

  app.get('/v1/projects/:project_id/webhook', {
    schema: { tags: ['projects'], summary: 'Webhook config (the secret is never returned)', security, params: ZProjectParams, response: { 200: ZWebhookView, ...errs } },
  }, async (req) => getWebhook(req.em, req.principal, req.params.project_id));

  app.put('/v1/projects/:project_id/webhook', {
    schema: { tags: ['projects'], summary: 'Set the webhook URL; the signing secret is minted on first set or with regenerate, and returned that once', security, params: ZProjectParams, body: ZWebhookPutBody, response: { 200: ZWebhookPutResponse, ...errs } },
  }, async (req) => configureWebhook(req.em, req.deps.config, req.principal, req.params.project_id, req.body));

  app.delete('/v1/projects/:project_id/webhook', {
    schema: { tags: ['projects'], summary: 'Clear the webhook URL (the secret is kept)', security, params: ZProjectParams, response: { 204: z.null(), ...errs } },
  }, async (req, reply) => {
    await clearWebhook(req.em, req.principal, req.params.project_id);
    return reply.code(204).send(null);
  });
}
