import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../domain/errors.js';
import type { ApiKeyPrincipal } from '../../domain/principal.js';
import { principalForKey } from '../../services/api-keys.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the request acts for; services take it for tenancy. */
    principal: ApiKeyPrincipal;
  }
}

/** preHandler for machine routes: a missing, unknown, revoked or rotated key is 401. */
export async function requireApiKey(req: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const raw = req.headers['x-api-key'];
  if (typeof raw !== 'string' || raw.length === 0) throw new AppError('unauthorized', 'Send your project API key in the X-API-Key header.');
  const principal = await principalForKey(req.em, raw);
  if (!principal) throw new AppError('unauthorized', 'The API key is not valid (unknown, revoked or rotated).');
  req.principal = principal;
}
