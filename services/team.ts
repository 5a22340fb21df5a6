import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { canAssignRole } from '../domain/permissions.js';
import type { MemberPrincipal, Role } from '../domain/principal.js';
import { DashboardSession, Invitation, Membership, User, type IInvitation } from '../db/entities/index.js';
import { audit } from './audit.js';
import { normaliseEmail } from './grant-owner.js';

/**
 * Team management inside the principal's org. The guard (services/access.ts) has already checked
 * `team:read` / `team:manage`; these functions add the owner rules (only owners touch the owner
 * role; the last owner stays).
 */
export interface MemberView { user_id: string; email: string; name: string | null; role: Role; joined_at: string }
export interface InvitationView { id: string; email: string; role: Role; status: 'pending' | 'accepted' | 'revoked'; created_at: string }

export async function listMembers(em: EntityManager, p: MemberPrincipal): Promise<MemberView[]> {
  const ms = await em.find(Membership, { orgId: p.orgId }, { orderBy: { createdAt: 'asc' } });
  const users = ms.length ? await em.find(User, { id: { $in: ms.map((m) => m.userId) } }) : [];
  const byId = new Map(users.map((u) => [u.id, u]));
  return ms.map((m) => ({ user_id: m.userId, email: byId.get(m.userId)!.email, name: byId.get(m.userId)!.name ?? null, role: m.role, joined_at: m.createdAt.toISOString() }));
}

export const viewInvitation = (i: IInvitation): InvitationView => ({ id: i.id, email: i.email, role: i.role, status: i.status, created_at: i.createdAt.toISOString() });

export async function listPendingInvitations(em: EntityManager, p: MemberPrincipal): Promise<InvitationView[]> {
  return (await em.find(Invitation, { orgId: p.orgId, status: 'pending' }, { orderBy: { createdAt: 'desc' } })).map(viewInvitation);
}

export async function invite(em: EntityManager, p: MemberPrincipal, input: { email: string; role: Role }): Promise<InvitationView> {
  if (!canAssignRole(p.role, null, input.role)) throw new AppError('forbidden', 'Only an owner can invite an owner.');
  const email = normaliseEmail(input.email);
  const user = await em.findOne(User, { email });
  if (user && (await em.findOne(Membership, { orgId: p.orgId, userId: user.id }))) {
    throw new AppError('conflict', 'That person is already a member.', [{ field: 'email', code: 'already_member', message: 'already a member of this org' }]);
  }
  if (await em.findOne(Invitation, { orgId: p.orgId, email, status: 'pending' })) {
    throw new AppError('conflict', 'There is already a pending invitation for that email.', [{ field: 'email', code: 'already_invited', message: 'already invited' }]);
  }
  const inv = em.create(Invitation, { id: newId('invitation'), orgId: p.orgId, email, role: input.role, status: 'pending', invitedByUserId: p.userId, acceptedUserId: null, createdAt: new Date(), resolvedAt: null });
  await audit(em, p, 'invitation.created', { targetId: inv.id, meta: { role: input.role } });
  await em.flush();
  return viewInvitation(inv);
}

/** Revokes a pending invitation; an invitation of another org is 404; an already resolved one is 409. */
export async function revokeInvitation(em: EntityManager, p: MemberPrincipal, id: string): Promise<void> {
  const inv = await em.findOne(Invitation, { id, orgId: p.orgId });
  if (!inv) throw new AppError('not_found', 'No such invitation.');
  if (inv.status === 'revoked') return;
  if (inv.status !== 'pending') throw new AppError('conflict', 'The invitation was already accepted.');
  if (!canAssignRole(p.role, null, inv.role)) throw new AppError('forbidden', 'Only an owner can revoke an owner invitation.');
  inv.status = 'revoked';
  inv.resolvedAt = new Date();
  await audit(em, p, 'invitation.revoked', { targetId: inv.id });
  await em.flush();
}

async function otherOwners(em: EntityManager, orgId: string, userId: string): Promise<number> {
  return em.count(Membership, { orgId, role: 'owner', userId: { $ne: userId } });
}

export async function changeRole(em: EntityManager, p: MemberPrincipal, userId: string, role: Role): Promise<MemberView> {
  return em.transactional(async (tx) => {
    const m = await tx.findOne(Membership, { orgId: p.orgId, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!m) throw new AppError('not_found', 'No such member.');
    if (!canAssignRole(p.role, m.role, role)) throw new AppError('forbidden', 'Only an owner can grant or take away the owner role.');
    if (m.role === 'owner' && role !== 'owner' && (await otherOwners(tx, p.orgId, userId)) === 0) throw new AppError('last_owner', 'An org keeps at least one owner.');
    const from = m.role;
    m.role = role;
    m.updatedAt = new Date();
    await audit(tx, p, 'member.role_changed', { targetId: userId, meta: { from, to: role } });
    await tx.flush();
    const u = await tx.findOneOrFail(User, { id: userId });
    return { user_id: userId, email: u.email, name: u.name ?? null, role, joined_at: m.createdAt.toISOString() };
  });
}

export async function removeMember(em: EntityManager, p: MemberPrincipal, userId: string): Promise<void> {
  await em.transactional(async (tx) => {
    const m = await tx.findOne(Membership, { orgId: p.orgId, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!m) throw new AppError('not_found', 'No such member.');
    if (!canAssignRole(p.role, m.role, null)) throw new AppError('forbidden', 'Only an owner can remove an owner.');
    if (m.role === 'owner' && (await otherOwners(tx, p.orgId, userId)) === 0) throw new AppError('last_owner', 'An org keeps at least one owner.');
    tx.remove(m);
    // Their sessions stop pointing at this org (the guard would refuse them anyway).
    await tx.nativeUpdate(DashboardSession, { userId, activeOrgId: p.orgId }, { activeOrgId: null, activeProjectId: null });
    await audit(tx, p, 'member.removed', { targetId: userId, meta: { role: m.role } });
    await tx.flush();
  });
}
