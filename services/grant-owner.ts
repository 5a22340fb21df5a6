import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { Membership, Org, Project, User } from '../db/entities/index.js';
import { audit } from './audit.js';

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Operator action (`npm run grant-owner -- <email> <org or project id>`): makes the user with this
 * email an owner of the org, creating the user row if they never signed in (their first sign-in
 * with that verified email links to it). Adopted orgs have no members until this runs.
 */
export async function grantOwner(em: EntityManager, email: string, orgOrProjectId: string): Promise<{ userId: string; orgId: string; created: boolean }> {
  return em.transactional(async (tx) => {
    let org = await tx.findOne(Org, { id: orgOrProjectId });
    if (!org) {
      const project = await tx.findOne(Project, { id: orgOrProjectId });
      if (project) org = await tx.findOne(Org, { id: project.orgId });
    }
    if (!org) throw new AppError('not_found', `No org or project ${orgOrProjectId}.`);
    const addr = normaliseEmail(email);
    if (!/^[^@\s]+@[^@\s]+$/.test(addr)) throw new AppError('validation_failed', 'Not an email address.', [{ field: 'email', code: 'invalid_email', message: 'not an email address' }]);
    let user = await tx.findOne(User, { email: addr });
    if (!user) user = tx.create(User, { id: newId('user'), email: addr, name: null, createdAt: new Date(), lastSignInAt: null });
    const now = new Date();
    const existing = await tx.findOne(Membership, { orgId: org.id, userId: user.id });
    if (existing) {
      existing.role = 'owner';
      existing.updatedAt = now;
    } else {
      tx.create(Membership, { id: newId('membership'), orgId: org.id, userId: user.id, role: 'owner', createdAt: now, updatedAt: now });
    }
    await audit(tx, { kind: 'operator' }, 'member.owner_granted', { orgId: org.id, targetId: user.id });
    await tx.flush();
    return { userId: user.id, orgId: org.id, created: !existing };
  });
}
