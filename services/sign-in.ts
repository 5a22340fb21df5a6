import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../domain/ids.js';
import { Identity, Invitation, Membership, Project, User, type IUser } from '../db/entities/index.js';
import { audit } from './audit.js';
import type { ProviderIdentity } from './oauth.js';
import { createOrg, createProjectInOrg } from './projects.js';

/**
 * After the provider vouched for an identity: find or create the user (by provider subject, else
 * by verified email, which links a second provider or an operator-created user), join every
 * pending invitation for that email, and give someone with no org a personal sandbox org.
 * Returns the org and project to open.
 */
export async function signInUser(em: EntityManager, id: ProviderIdentity): Promise<{ user: IUser; orgId: string; projectId: string | null; joined: string[] }> {
  return em.transactional(async (tx) => {
    const now = new Date();
    const linked = await tx.findOne(Identity, { provider: id.provider, subject: id.subject });
    let user = linked ? await tx.findOneOrFail(User, { id: linked.userId }) : await tx.findOne(User, { email: id.email });
    if (!user) user = tx.create(User, { id: newId('user'), email: id.email, name: id.name, createdAt: now, lastSignInAt: null });
    if (!linked) tx.create(Identity, { id: newId('identity'), userId: user.id, provider: id.provider, subject: id.subject, createdAt: now });
    // The provider's current verified email wins (an address change at Google follows the user).
    if (user.email !== id.email && !(await tx.findOne(User, { email: id.email }))) user.email = id.email;
    if (id.name && !user.name) user.name = id.name;
    user.lastSignInAt = now;
    await tx.flush();

    const joined: string[] = [];
    const invitations = await tx.find(Invitation, { email: user.email, status: 'pending' }, { orderBy: { createdAt: 'asc' } });
    for (const inv of invitations) {
      const existing = await tx.findOne(Membership, { orgId: inv.orgId, userId: user.id });
      if (!existing) tx.create(Membership, { id: newId('membership'), orgId: inv.orgId, userId: user.id, role: inv.role, createdAt: now, updatedAt: now });
      inv.status = 'accepted';
      inv.acceptedUserId = user.id;
      inv.resolvedAt = now;
      await audit(tx, { kind: 'user', userId: user.id, orgId: inv.orgId }, 'invitation.accepted', { targetId: inv.id, meta: { role: inv.role } });
      joined.push(inv.orgId);
    }
    await tx.flush();

    let memberships = await tx.find(Membership, { userId: user.id }, { orderBy: { createdAt: 'asc' } });
    if (memberships.length === 0) {
      // Nobody invited them and they own nothing yet: a personal sandbox org to start in.
      const org = createOrg(tx, `${user.name ?? user.email.split('@')[0]}'s org`);
      tx.create(Membership, { id: newId('membership'), orgId: org.id, userId: user.id, role: 'owner', createdAt: now, updatedAt: now });
      await tx.flush();
      await createProjectInOrg(tx, org.id, 'Sandbox project', true);
      memberships = await tx.find(Membership, { userId: user.id });
    }
    const orgId = joined[0] ?? memberships[0]!.orgId;
    const project = await tx.findOne(Project, { orgId }, { orderBy: { createdAt: 'asc' } });
    await audit(tx, { kind: 'user', userId: user.id, orgId }, 'session.signed_in', { meta: { provider: id.provider } });
    await tx.flush();
    return { user, orgId, projectId: project?.id ?? null, joined };
  });
}
