import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZApiKeyView, ZBranding, ZCreateKeyBody, ZCreatedKey, ZProblem, ZProjectKeyParams, ZProjectParams, ZWebhookPutBody, ZWebhookPutResponse, ZWebhookView,
} from '../../domain/api-schemas.js';
import type { Permission } from '../../domain/permissions.js';
import { projectAccess } from '../../services/access.js';
import { clearWebhook, createKey, listKeys, putWebhook, revokeKey, updateBranding, viewWebhook } from '../../services/project-settings.js';
import { resolveCaller } from '../plugins/session.js';

// Either the project's own key or a signed-in member with the permission (CSRF token on writes).
const security: { [k: string]: string[] }[] = [{ apiKey: [] }, { session: [], csrf: [] }];
const errs = { 400: ZProblem, 401: ZProblem, 403: ZProblem, 404: ZProblem, 422: ZProblem };

/** The one guard, for the project named in the path. */
async function guard(req: FastifyRequest, reply: FastifyReply, permission: Permission) {
  const caller = await resolveCaller(req, reply, { allowApiKey: true });
  return projectAccess(req.em, caller, (req.params as { project_id: string }).project_id, permission);
}

/** Project settings: the project's key, or a dashboard session gated per permission (non-members get 404). */
export async function projectRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/v1/projects/:project_id/keys', {
    schema: { tags: ['projects'], summary: 'List the project API keys (never the raw values)', security, params: ZProjectParams, response: { 200: z.object({ data: z.array(ZApiKeyView) }), ...errs } },
  }, async (req, reply) => {
    const { project } = await guard(req, reply, 'project:read');
    return { data: await listKeys(req.em, project) };
  });

  app.post('/v1/projects/:project_id/keys', {
    schema: { tags: ['projects'], summary: 'Create a project key; the raw value is shown once', security, params: ZProjectParams, body: ZCreateKeyBody.optional(), response: { 201: ZCreatedKey, ...errs } },
  }, async (req, reply) => {
    const { project, principal } = await guard(req, reply, 'keys:manage');
    return reply.code(201).send(await createKey(req.em, principal, project, req.body?.name ?? 'unnamed'));
  });

  app.delete('/v1/projects/:project_id/keys/:key_id', {
    schema: { tags: ['projects'], summary: 'Revoke a project key (idempotent)', security, params: ZProjectKeyParams, response: { 204: z.null(), ...errs } },
  }, async (req, reply) => {
    const { project, principal } = await guard(req, reply, 'keys:manage');
    await revokeKey(req.em, principal, project, req.params.key_id);
    return reply.code(204).send(null);
  });

  app.get('/v1/projects/:project_id/branding', {
    schema: { tags: ['projects'], summary: 'Hosted-page branding', security, params: ZProjectParams, response: { 200: ZBranding, ...errs } },
  }, async (req, reply) => {
    const { project } = await guard(req, reply, 'project:read');
    return (project.branding ?? {}) as z.infer<typeof ZBranding>;
  });

  app.put('/v1/projects/:project_id/branding', {
    schema: { tags: ['projects'], summary: 'Set hosted-page branding (replaces it)', security, params: ZProjectParams, body: ZBranding, response: { 200: ZBranding, ...errs } },
  }, async (req, reply) => {
    const { project, principal } = await guard(req, reply, 'branding:manage');
    return updateBranding(req.em, principal, project, req.body);
  });

  app.get('/v1/projects/:project_id/webhook', {
    schema: { tags: ['projects'], summary: 'Webhook config (the secret is never returned)', security, params: ZProjectParams, response: { 200: ZWebhookView, ...errs } },
  }, async (req, reply) => viewWebhook((await guard(req, reply, 'project:read')).project));

  app.put('/v1/projects/:project_id/webhook', {
    schema: { tags: ['projects'], summary: 'Set the webhook URL; the signing secret is minted on first set or with regenerate, and returned that once', security, params: ZProjectParams, body: ZWebhookPutBody, response: { 200: ZWebhookPutResponse, ...errs } },
  }, async (req, reply) => {
    const { project, principal } = await guard(req, reply, 'webhook:manage');
    return putWebhook(req.em, req.deps.config, principal, project, req.body);
  });

  app.delete('/v1/projects/:project_id/webhook', {
    schema: { tags: ['projects'], summary: 'Clear the webhook URL (the secret is kept)', security, params: ZProjectParams, response: { 204: z.null(), ...errs } },
  }, async (req, reply) => {
    const { project, principal } = await guard(req, reply, 'webhook:manage');
    await clearWebhook(req.em, principal, project);
    return reply.code(204).send(null);
  });
}
