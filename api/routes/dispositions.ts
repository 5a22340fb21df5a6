import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZDisposition, ZDispositionBody, ZDispositionList, ZIdParams, ZProblem } from '../../domain/api-schemas.js';
import { listDispositions, recordDisposition } from '../../services/dispositions.js';
import { resolveCaller } from '../plugins/session.js';

// A signed-in dashboard session only: a disposition is a teammate's act (spec: `cases:review`),
// so a project API key cannot record one. CSRF token on the write.
const security = [{ session: [], csrf: [] }];
const errs = { 400: ZProblem, 401: ZProblem, 403: ZProblem, 404: ZProblem, 409: ZProblem, 503: ZProblem };

/** Customer dispositions (Case Management). Non-members get 404, members without the permission 403. */
export async function dispositionRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post('/v1/verifications/:id/disposition', {
    schema: {
      tags: ['case management'],
      summary: 'Record a customer disposition (needs `cases:review`); appends to the history and emits `verification.reviewed`. The assessment never changes.',
      security, params: ZIdParams, body: ZDispositionBody, response: { 201: ZDisposition, ...errs },
    },
  }, async (req, reply) => {
    const caller = await resolveCaller(req, reply, { allowApiKey: false });
    if (caller.kind !== 'user') throw new Error('unreachable: API keys are not accepted here');
    return reply.code(201).send(await recordDisposition(req.deps, caller.userId, req.params.id, req.body));
  });

  app.get('/v1/verifications/:id/dispositions', {
    schema: { tags: ['case management'], summary: 'The disposition history of a Case, newest first (needs `cases:read`)', security, params: ZIdParams, response: { 200: ZDispositionList, ...errs } },
  }, async (req, reply) => {
    const caller = await resolveCaller(req, reply, { allowApiKey: false });
    if (caller.kind !== 'user') throw new Error('unreachable: API keys are not accepted here');
    return { data: await listDispositions(req.em, caller.userId, req.params.id) };
  });
}
