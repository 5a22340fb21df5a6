import type { Role } from './principal.js';

/**
 * The one role → permission table. Enforced by services/access.ts on every dashboard page and
 * session-scoped /v1 route; docs/permissions.md is checked against it (domain/permissions.test.ts).
 */
export const PERMISSIONS = {
  'project:read': 'See the project settings: key list, webhook config and delivery log, branding',
  'projects:create': 'Create projects in the org',
  'keys:manage': 'Create and revoke project API keys',
  'webhook:manage': 'Set, regenerate and clear the project webhook',
  'branding:manage': 'Change the hosted-page branding',
  'team:read': 'See members and pending invitations',
  'team:manage': 'Invite, revoke invitations, change roles, remove members',
  'audit:read': 'Read the audit log',
  'cases:read': 'See Verifications and Cases',
  'cases:review': 'Record a customer disposition on a Case',
  'cases:read_pii': 'See Case evidence with PII: capture images, fields read, record-match values, reviewers\' notes',
  'cases:erase': 'Erase a Case from the dashboard',
  'flows:manage': 'Compose, save and delete Template drafts (Build), activate a Template as a Flow, publish Flow versions, activate and deactivate Flows',
} as const;
export type Permission = keyof typeof PERMISSIONS;

export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  owner: ['project:read', 'projects:create', 'keys:manage', 'webhook:manage', 'branding:manage', 'team:read', 'team:manage', 'audit:read', 'cases:read', 'cases:review', 'cases:read_pii', 'cases:erase', 'flows:manage'],
  admin: ['project:read', 'projects:create', 'keys:manage', 'webhook:manage', 'branding:manage', 'team:read', 'team:manage', 'audit:read', 'cases:read', 'cases:review', 'cases:read_pii', 'cases:erase', 'flows:manage'],
  developer: ['project:read', 'keys:manage', 'webhook:manage', 'team:read', 'cases:read', 'flows:manage'],
  compliance: ['project:read', 'team:read', 'cases:read', 'cases:review', 'cases:read_pii', 'cases:erase'],
};

export function can(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

/** Only an owner may grant or take away the owner role (admins manage everyone else). */
export function canAssignRole(actor: Role, from: Role | null, to: Role | null): boolean {
  if (!can(actor, 'team:manage')) return false;
  if (actor === 'owner') return true;
  return from !== 'owner' && to !== 'owner';
}

/** The markdown table in docs/permissions.md, generated from the table above. */
export function permissionsMarkdown(): string {
  const roles = Object.keys(ROLE_PERMISSIONS) as Role[];
  const head = `| permission | meaning | ${roles.join(' | ')} |\n|---|---|${roles.map(() => '---').join('|')}|`;
  const rows = (Object.keys(PERMISSIONS) as Permission[]).map((p) => `| \`${p}\` | ${PERMISSIONS[p]} | ${roles.map((r) => (can(r, p) ? 'yes' : '—')).join(' | ')} |`);
  return [head, ...rows].join('\n');
}
