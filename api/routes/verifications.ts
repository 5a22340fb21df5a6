import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  IDEMPOTENCY_KEY_HEADER, ZCreatedVerification, ZCreateVerificationBody, ZErasureReceipt, ZIdempotencyHeaders, ZIdParams, ZListVerificationsQuery, ZProblem, ZVerification, ZVerificationList,
} from '../../domain/api-schemas.js';
import { AppError } from '../../domain/errors.js';
import { createVerification } from '../../services/create-verification.js';
import { eraseVerification } from '../../services/erase-verification.js';
import { listVerifications } from '../../services/list-verifications.js';
import { findOwnCase } from '../../services/tenancy.js';
import { getVerification } from '../../services/verification-view.js';
import { requireApiKey } from '../plugins/api-key-auth.js';

const security = [{ apiKey: [] }];
const errs = { 400: ZProblem, 401: ZProblem, 404: ZProblem, 422: ZProblem, 503: ZProblem };

export async function verificationRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.addHook('preHandler', requireApiKey);

  app.post('/v1/verifications', {
    schema: {
      tags: ['verifications'], summary: 'Create a verification; answers at once, the result arrives by webhook or polling', security,
      headers: ZIdempotencyHeaders, body: ZCreateVerificationBody, response: { 201: ZCreatedVerification, ...errs, 409: ZProblem },
    },
  }, async (req, reply) => {
    const created = await createVerification(req.deps, req.principal, req.body, req.headers[IDEMPOTENCY_KEY_HEADER]);
    if (created.replayed) reply.header('idempotent-replayed', 'true');
    return reply.code(201).send({
      id: created.id,
      type: 'kyc' as const,
      status: 'collecting' as const,
      onboarding_url: created.onboardingUrl,
      short_url: created.shortUrl,
      expires_at: created.expiresAt.toISOString(),
      created_at: created.createdAt.toISOString(),
    });
  });

  app.get('/v1/verifications', {
    schema: { tags: ['verifications'], summary: 'List verifications, newest first, with cursor pagination and filters', security, querystring: ZListVerificationsQuery, response: { 200: ZVerificationList, ...errs } },
  }, async (req) => listVerifications(req.em, req.principal, req.query));

  app.get('/v1/verifications/:id', {
    schema: { tags: ['verifications'], summary: 'Status and assessment; the full result with per-check evidence once complete', security, params: ZIdParams, response: { 200: ZVerification, ...errs } },
  }, async (req) => getVerification(req.em, req.principal, req.params.id));

  app.delete('/v1/verifications/:id', {
    schema: { tags: ['verifications'], summary: 'Erase PII at any status; returns a PII-safe receipt (the same one on repeat)', security, params: ZIdParams, response: { 200: ZErasureReceipt, ...errs } },
  }, async (req) => eraseVerification(req.deps, req.principal, req.params.id));

  app.post('/v1/verifications/:id/ubos', {
    schema: { tags: ['verifications'], summary: 'Beneficial owners (KYB): not in this release', security, params: ZIdParams, response: { ...errs } },
  }, async (req) => {
    // Another project's Case is 404 before the feature answer, so ids never leak.
    await findOwnCase(req.em, req.principal, req.params.id);
    throw new AppError('kyb_not_available', 'Beneficial-owner declarations are KYB, which is not available in this release.');
  });
}
