import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdParams, ZInvitation, ZInvitationBody, ZMember, ZProblem, ZRoleBody, ZUserParams } from '../../domain/api-schemas.js';
import type { Permission } from '../../domain/permissions.js';
import { orgAccess } from '../../services/access.js';
import { changeRole, invite, listMembers, listPendingInvitations, removeMember, revokeInvitation } from '../../services/team.js';
import { currentSession, resolveCaller } from '../plugins/session.js';

const security = [{ session: [], csrf: [] }];
const errs = { 400: ZProblem, 401: ZProblem, 403: ZProblem, 404: ZProblem, 409: ZProblem };

/** The active org of the signed-in session, through the one guard. */
async function guard(req: FastifyRequest, reply: FastifyReply, permission: Permission) {
  const caller = await resolveCaller(req, reply, { allowApiKey: false });
  if (caller.kind !== 'user') throw new Error('unreachable');
  const session = (await currentSession(req))!;
  return orgAccess(req.em, caller.userId, session.activeOrgId, permission);
}

/** `/v1/team/*`: members and invitations of the session's active org (switch it in the dashboard). */
export async function teamRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/v1/team/members', {
    schema: { tags: ['team'], summary: 'Members of the active org (email, name, role)', security, response: { 200: z.object({ data: z.array(ZMember) }), ...errs } },
  }, async (req, reply) => ({ data: await listMembers(req.em, await guard(req, reply, 'team:read')) }));

  app.patch('/v1/team/members/:user_id', {
    schema: { tags: ['team'], summary: "Change a member's role (only owners grant or take away owner; the last owner stays)", security, params: ZUserParams, body: ZRoleBody, response: { 200: ZMember, ...errs } },
  }, async (req, reply) => changeRole(req.em, await guard(req, reply, 'team:manage'), req.params.user_id, req.body.role));

  app.delete('/v1/team/members/:user_id', {
    schema: { tags: ['team'], summary: 'Remove a member from the org', security, params: ZUserParams, response: { 204: z.null(), ...errs } },
  }, async (req, reply) => {
    await removeMember(req.em, await guard(req, reply, 'team:manage'), req.params.user_id);
    return reply.code(204).send(null);
  });

  app.get('/v1/team/invitations', {
    schema: { tags: ['team'], summary: 'Pending invitations of the active org', security, response: { 200: z.object({ data: z.array(ZInvitation) }), ...errs } },
  }, async (req, reply) => ({ data: await listPendingInvitations(req.em, await guard(req, reply, 'team:read')) }));

  app.post('/v1/team/invitations', {
    schema: { tags: ['team'], summary: 'Invite by email and role; the invitee joins at their next sign-in with that verified email (no email is sent)', security, body: ZInvitationBody, response: { 201: ZInvitation, ...errs } },
  }, async (req, reply) => reply.code(201).send(await invite(req.em, await guard(req, reply, 'team:manage'), req.body)));

  app.delete('/v1/team/invitations/:id', {
    schema: { tags: ['team'], summary: 'Revoke a pending invitation', security, params: ZIdParams, response: { 204: z.null(), ...errs } },
  }, async (req, reply) => {
    await revokeInvitation(req.em, await guard(req, reply, 'team:manage'), req.params.id);
    return reply.code(204).send(null);
  });
}
