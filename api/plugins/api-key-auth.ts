import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../domain/errors.js';
import type { IApiKey, IProject } from '../../db/entities/index.js';
import { authenticateKey } from '../../services/api-keys.js';

declare module 'fastify' {
  interface FastifyRequest {
    project: IProject;
    apiKey: IApiKey;
  }
}

/** preHandler for machine routes: a missing, unknown, revoked or rotated key is 401. */
export async function requireApiKey(req: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const raw = req.headers['x-api-key'];
  if (typeof raw !== 'string' || raw.length === 0) throw new AppError('unauthorized', 'Send your project API key in the X-API-Key header.');
  const found = await authenticateKey(req.em, raw);
  if (!found) throw new AppError('unauthorized', 'The API key is not valid (unknown, revoked or rotated).');
  req.project = found.project;
  req.apiKey = found.key;
  const now = Date.now();
  // Bounded write amplification: last-used is refreshed at most once a minute per key.
  if (!found.key.lastUsedAt || now - found.key.lastUsedAt.getTime() > 60_000) {
    found.key.lastUsedAt = new Date(now);
    await req.em.flush();
  }
}

/** Project-scoped routes: a key may only act on its own project; another project is 404 (never 403). */
export function assertOwnProject(req: FastifyRequest, projectId: string): void {
  if (req.project.id !== projectId) throw new AppError('not_found', 'No such project.');
}
