import { beforeAll, describe, expect, it } from 'vitest';
import { can, type Permission } from '../../domain/permissions.js';
import { ROLES, type Role } from '../../domain/principal.js';
import { Browser, csrfOf, signIn, uniqueEmail, userIdOf } from '../dashboard-helpers.js';
import { SAMPLE_KYC_DEFINITION } from '../../domain/primitives.js';
import { createVerification, sampleJpeg, sql, stack, submit, tokenOf, upload, waitForStatus } from '../helpers.js';

/**
 * The whole matrix through HTTP: each role × each session-scoped route (JSON /v1 and dashboard
 * pages). Allowed → the route's success status; member without the permission → 403; someone
 * outside the org → 404 on everything of it.
 */
interface Who { browser: Browser; csrf: string; userId: string; email: string }
interface Route { name: string; permission: Permission; ok: number; run(w: Who): Promise<Response> }

const apiUrl = () => stack().apiUrl;
let owner: Who;
const members = {} as Record<Role, Who>;
let outsider: Who;
let orgA: string;
let projectA: string;
let projectB: string;
let keyA: string;
/** A completed Case of project A (dispositions need one) and a capture of it. */
let doneCase: string;
let capture: string;

async function who(email: string): Promise<Who> {
  const s = await signIn('google', email);
  return { browser: s.browser, csrf: await csrfOf(s.browser), userId: await userIdOf(email), email };
}
const json = (w: Who, method: string, path: string, body?: unknown) =>
  w.browser.fetch(`${apiUrl()}${path}`, { method, ...(body !== undefined ? { json: body } : {}), headers: method === 'GET' ? {} : { 'x-csrf-token': w.csrf } });
const form = (w: Who, path: string, fields: Record<string, string> = {}) => w.browser.fetch(`${apiUrl()}${path}`, { form: { ...fields, _csrf: w.csrf } });
const page = (w: Who, path: string) => w.browser.fetch(`${apiUrl()}${path}`);

async function invitation(email = uniqueEmail('inv')): Promise<string> {
  const r = await json(owner, 'POST', '/v1/team/invitations', { email, role: 'developer' });
  expect(r.status).toBe(201);
  return (await r.json()).id;
}
async function spareMember(): Promise<string> {
  const email = uniqueEmail('spare');
  await invitation(email);
  await signIn('google', email);
  return userIdOf(email);
}
async function aKey(): Promise<string> {
  const r = await json(owner, 'POST', `/v1/projects/${projectA}/keys`, { name: 'target' });
  return (await r.json()).id;
}

/** A fresh Case of project A (the erase route consumes one per allowed role). */
async function freshCase(): Promise<string> {
  return (await createVerification(keyA)).id;
}
let serial = 0;
const slug = (tag: string) => `${tag}-${Date.now().toString(36)}-${serial++}`;
/** A draft of project A, saved through the Build form as the owner. */
async function aDraft(): Promise<string> {
  const r = await form(owner, `/dashboard/projects/${projectA}/build/drafts`, composerForm(`draft ${serial++}`));
  expect(r.status).toBe(303);
  return /drafts\/(tpd_[0-9A-Z]{26})/.exec(r.headers.get('location')!)![1]!;
}
/** The composer's fields for a small valid Template (document capture, intake shape). */
const composerForm = (name: string): Record<string, string> => ({
  name,
  'document_capture.__include': '1',
  'document_capture.accepted_documents.0.country': 'MZ',
  'document_capture.accepted_documents.0.types[passport]': '1',
  'intake_shape.__include': '1',
  'intake_shape.fields.0.key': 'full_name',
  'intake_shape.fields.0.type': 'string',
  'intake_shape.fields.0.required': '1',
  _op: 'save',
});
let draftA: string;

const routes = (p: () => string): Route[] => [
  { name: 'GET /v1/projects/{id}/keys', permission: 'project:read', ok: 200, run: (w) => json(w, 'GET', `/v1/projects/${p()}/keys`) },
  { name: 'POST /v1/projects/{id}/keys', permission: 'keys:manage', ok: 201, run: (w) => json(w, 'POST', `/v1/projects/${p()}/keys`, { name: 'm' }) },
  { name: 'DELETE /v1/projects/{id}/keys/{key}', permission: 'keys:manage', ok: 204, run: async (w) => json(w, 'DELETE', `/v1/projects/${p()}/keys/${await aKey()}`) },
  { name: 'GET /v1/projects/{id}/webhook', permission: 'project:read', ok: 200, run: (w) => json(w, 'GET', `/v1/projects/${p()}/webhook`) },
  { name: 'PUT /v1/projects/{id}/webhook', permission: 'webhook:manage', ok: 200, run: (w) => json(w, 'PUT', `/v1/projects/${p()}/webhook`, { url: 'https://example.test/hooks' }) },
  { name: 'DELETE /v1/projects/{id}/webhook', permission: 'webhook:manage', ok: 204, run: (w) => json(w, 'DELETE', `/v1/projects/${p()}/webhook`) },
  { name: 'GET /v1/projects/{id}/branding', permission: 'project:read', ok: 200, run: (w) => json(w, 'GET', `/v1/projects/${p()}/branding`) },
  { name: 'PUT /v1/projects/{id}/branding', permission: 'branding:manage', ok: 200, run: (w) => json(w, 'PUT', `/v1/projects/${p()}/branding`, { name: 'Acme' }) },
  { name: 'GET /dashboard/projects/{id}/keys', permission: 'project:read', ok: 200, run: (w) => page(w, `/dashboard/projects/${p()}/keys`) },
  { name: 'POST /dashboard/projects/{id}/keys', permission: 'keys:manage', ok: 201, run: (w) => form(w, `/dashboard/projects/${p()}/keys`, { name: 'm' }) },
  { name: 'POST /dashboard/projects/{id}/keys/{key}/revoke', permission: 'keys:manage', ok: 303, run: async (w) => form(w, `/dashboard/projects/${p()}/keys/${await aKey()}/revoke`) },
  { name: 'GET /dashboard/projects/{id}/webhook', permission: 'project:read', ok: 200, run: (w) => page(w, `/dashboard/projects/${p()}/webhook`) },
  { name: 'POST /dashboard/projects/{id}/webhook', permission: 'webhook:manage', ok: 303, run: (w) => form(w, `/dashboard/projects/${p()}/webhook`, { url: 'https://example.test/hooks2' }) },
  { name: 'POST /dashboard/projects/{id}/webhook/clear', permission: 'webhook:manage', ok: 303, run: (w) => form(w, `/dashboard/projects/${p()}/webhook/clear`) },
  { name: 'GET /dashboard/projects/{id}/branding', permission: 'project:read', ok: 200, run: (w) => page(w, `/dashboard/projects/${p()}/branding`) },
  { name: 'GET /dashboard/projects/{id}/branding/preview', permission: 'project:read', ok: 200, run: (w) => page(w, `/dashboard/projects/${p()}/branding/preview?primary_colour=%23aa0000`) },
  { name: 'POST /dashboard/projects/{id}/branding', permission: 'branding:manage', ok: 303, run: (w) => form(w, `/dashboard/projects/${p()}/branding`, { name: 'Acme', primary_colour: '#aa0000' }) },
  // Verifications and Case Management.
  { name: 'GET /dashboard/projects/{id}/verifications', permission: 'cases:read', ok: 200, run: (w) => page(w, `/dashboard/projects/${p()}/verifications?status=completed`) },
  { name: 'GET /dashboard/projects/{id}/verifications/{case}', permission: 'cases:read', ok: 200, run: (w) => page(w, `/dashboard/projects/${p()}/verifications/${doneCase}`) },
  { name: 'GET …/verifications/{case}/captures/{upload}', permission: 'cases:read_pii', ok: 200, run: (w) => page(w, `/dashboard/projects/${p()}/verifications/${doneCase}/captures/${capture}`) },
  { name: 'POST …/verifications/{case}/disposition', permission: 'cases:review', ok: 303, run: (w) => form(w, `/dashboard/projects/${p()}/verifications/${doneCase}/disposition`, { state: 'customer_review_continues' }) },
  { name: 'POST …/verifications/{case}/erase', permission: 'cases:erase', ok: 200, run: async (w) => form(w, `/dashboard/projects/${p()}/verifications/${await freshCase()}/erase`, { confirm: '1' }) },
  { name: 'GET /dashboard/projects/{id}/review', permission: 'cases:read', ok: 200, run: (w) => page(w, `/dashboard/projects/${p()}/review`) },
  // Flows.
  { name: 'GET /dashboard/projects/{id}/flows', permission: 'project:read', ok: 200, run: (w) => page(w, `/dashboard/projects/${p()}/flows`) },
  { name: 'POST /dashboard/projects/{id}/flows', permission: 'flows:manage', ok: 303, run: (w) => form(w, `/dashboard/projects/${p()}/flows`, { slug: slug('json'), name: 'From JSON', definition: JSON.stringify(SAMPLE_KYC_DEFINITION) }) },
  { name: 'POST …/flows/{slug}/versions', permission: 'flows:manage', ok: 303, run: (w) => form(w, `/dashboard/projects/${p()}/flows/sample-kyc/versions`, { definition: JSON.stringify(SAMPLE_KYC_DEFINITION) }) },
  { name: 'POST …/flows/{slug}/deactivate', permission: 'flows:manage', ok: 303, run: (w) => form(w, `/dashboard/projects/${p()}/flows/sample-kyc/deactivate`) },
  { name: 'POST …/flows/{slug}/activate', permission: 'flows:manage', ok: 303, run: (w) => form(w, `/dashboard/projects/${p()}/flows/sample-kyc/activate`) },
  // Build.
  { name: 'GET /dashboard/projects/{id}/build', permission: 'project:read', ok: 200, run: (w) => page(w, `/dashboard/projects/${p()}/build`) },
  { name: 'POST /dashboard/projects/{id}/build/drafts', permission: 'flows:manage', ok: 303, run: (w) => form(w, `/dashboard/projects/${p()}/build/drafts`, composerForm('matrix')) },
  { name: 'GET …/build/drafts/{draft}', permission: 'project:read', ok: 200, run: (w) => page(w, `/dashboard/projects/${p()}/build/drafts/${draftA}`) },
  { name: 'POST …/build/drafts/{draft}', permission: 'flows:manage', ok: 303, run: (w) => form(w, `/dashboard/projects/${p()}/build/drafts/${draftA}`, composerForm('matrix edited')) },
  { name: 'GET …/build/drafts/{draft}/preview', permission: 'project:read', ok: 200, run: (w) => page(w, `/dashboard/projects/${p()}/build/drafts/${draftA}/preview`) },
  { name: 'GET …/build/drafts/{draft}/preview/hosted', permission: 'project:read', ok: 200, run: (w) => page(w, `/dashboard/projects/${p()}/build/drafts/${draftA}/preview/hosted`) },
  { name: 'POST …/build/drafts/{draft}/activate', permission: 'flows:manage', ok: 303, run: (w) => form(w, `/dashboard/projects/${p()}/build/drafts/${draftA}/activate`, { slug: slug('built') }) },
  { name: 'POST …/build/drafts/{draft}/publish', permission: 'flows:manage', ok: 303, run: (w) => form(w, `/dashboard/projects/${p()}/build/drafts/${draftA}/publish`, { flow: 'sample-kyc' }) },
  { name: 'POST …/build/drafts/{draft}/delete', permission: 'flows:manage', ok: 303, run: async (w) => form(w, `/dashboard/projects/${p()}/build/drafts/${p() === projectA ? await aDraft() : draftA}/delete`) },
];

const teamRoutes: Route[] = [
  { name: 'GET /v1/team/members', permission: 'team:read', ok: 200, run: (w) => json(w, 'GET', '/v1/team/members') },
  { name: 'GET /v1/team/invitations', permission: 'team:read', ok: 200, run: (w) => json(w, 'GET', '/v1/team/invitations') },
  { name: 'POST /v1/team/invitations', permission: 'team:manage', ok: 201, run: (w) => json(w, 'POST', '/v1/team/invitations', { email: uniqueEmail('m'), role: 'compliance' }) },
  { name: 'DELETE /v1/team/invitations/{id}', permission: 'team:manage', ok: 204, run: async (w) => json(w, 'DELETE', `/v1/team/invitations/${await invitation()}`) },
  { name: 'PATCH /v1/team/members/{user}', permission: 'team:manage', ok: 200, run: (w) => json(w, 'PATCH', `/v1/team/members/${members.developer.userId}`, { role: 'developer' }) },
  { name: 'DELETE /v1/team/members/{user}', permission: 'team:manage', ok: 204, run: async (w) => json(w, 'DELETE', `/v1/team/members/${can(roleOf(w), 'team:manage') ? await spareMember() : members.compliance.userId}`) },
  { name: 'GET /dashboard/team', permission: 'team:read', ok: 200, run: (w) => page(w, '/dashboard/team') },
  { name: 'POST /dashboard/team/invitations', permission: 'team:manage', ok: 303, run: (w) => form(w, '/dashboard/team/invitations', { email: uniqueEmail('f'), role: 'developer' }) },
  { name: 'POST /dashboard/team/invitations/{id}/revoke', permission: 'team:manage', ok: 303, run: async (w) => form(w, `/dashboard/team/invitations/${await invitation()}/revoke`) },
  { name: 'POST /dashboard/team/members/{user}/role', permission: 'team:manage', ok: 303, run: (w) => form(w, `/dashboard/team/members/${members.developer.userId}/role`, { role: 'developer' }) },
  { name: 'GET /dashboard/audit', permission: 'audit:read', ok: 200, run: (w) => page(w, '/dashboard/audit') },
  { name: 'POST /dashboard/orgs/{org}/projects', permission: 'projects:create', ok: 303, run: (w) => form(w, `/dashboard/orgs/${orgA}/projects`, { name: 'Another' }) },
];

function roleOf(w: Who): Role {
  return (Object.entries(members) as [Role, Who][]).find(([, m]) => m === w)![0];
}

beforeAll(async () => {
  const ownerEmail = uniqueEmail('owner');
  owner = await who(ownerEmail);
  members.owner = owner;
  orgA = (await sql<{ org_id: string }>('select org_id from memberships where user_id = $1', [owner.userId]))[0]!.org_id;
  projectA = (await sql<{ id: string }>('select id from projects where org_id = $1', [orgA]))[0]!.id;
  for (const role of ['admin', 'developer', 'compliance'] as const) {
    const email = uniqueEmail(role);
    const r = await json(owner, 'POST', '/v1/team/invitations', { email, role });
    expect(r.status).toBe(201);
    members[role] = await who(email);
  }
  outsider = await who(uniqueEmail('outsider'));
  const orgB = (await sql<{ org_id: string }>('select org_id from memberships where user_id = $1', [outsider.userId]))[0]!.org_id;
  projectB = (await sql<{ id: string }>('select id from projects where org_id = $1', [orgB]))[0]!.id;
  const k = await json(owner, 'POST', `/v1/projects/${projectA}/keys`, { name: 'cases' });
  keyA = (await k.json()).api_key;
  const v = await createVerification(keyA);
  const token = tokenOf(v.onboarding_url);
  const up = await upload(token, 'document_front', await sampleJpeg());
  expect(up.status).toBe(201);
  capture = (await sql<{ id: string }>("select id from uploads where verification_id = $1 and kind = 'document_front'", [v.id]))[0]!.id;
  expect((await submit(token)).status).toBe(202);
  await waitForStatus(keyA, v.id, ['completed', 'failed'], 150_000);
  doneCase = v.id;
  draftA = await aDraft();
}, 300_000);

describe('role × route matrix', () => {
  it('every member role gets exactly what the permission table allows, on every route', async () => {
    const table: string[] = [];
    const failures: string[] = [];
    for (const route of [...routes(() => projectA), ...teamRoutes]) {
      const row: string[] = [];
      for (const role of ROLES) {
        const w = members[role];
        const res = await route.run(w);
        const expected = can(role, route.permission) ? route.ok : 403;
        row.push(`${role}=${res.status}`);
        if (res.status !== expected) failures.push(`${route.name} as ${role}: ${res.status}, expected ${expected}`);
      }
      table.push(`${route.name.padEnd(52)} ${row.join(' ')}`);
    }
    console.log(table.join('\n'));
    expect(failures).toEqual([]);
    expect(table.length).toBe(29 + 6 + 5 + 9);
    // The refused roles wrote nothing: every draft and Flow of A was made by a role with flows:manage.
    const makers = await sql<{ role: string }>('select distinct m.role from template_drafts d join memberships m on m.user_id = d.created_by_user_id where d.project_id = $1', [projectA]);
    expect(makers.map((m) => m.role).filter((r) => !can(r as Role, 'flows:manage'))).toEqual([]);
  }, 400_000);

  it('a member of org B gets 404 for everything of org A (and org A members for org B)', async () => {
    const failures: string[] = [];
    for (const route of routes(() => projectA)) {
      const res = await route.run(outsider);
      if (res.status !== 404) failures.push(`${route.name} as outsider: ${res.status}`);
    }
    for (const role of ROLES) {
      for (const route of routes(() => projectB)) {
        const res = await route.run(members[role]);
        if (res.status !== 404) failures.push(`${route.name} on org B as ${role} of A: ${res.status}`);
      }
    }
    // Org A's objects named by id from org B's session.
    const inv = await invitation();
    const checks: [string, Response][] = [
      ['DELETE invitation of A', await json(outsider, 'DELETE', `/v1/team/invitations/${inv}`)],
      ['PATCH member of A', await json(outsider, 'PATCH', `/v1/team/members/${members.developer.userId}`, { role: 'admin' })],
      ['DELETE member of A', await json(outsider, 'DELETE', `/v1/team/members/${members.developer.userId}`)],
      ['dashboard revoke invitation of A', await form(outsider, `/dashboard/team/invitations/${inv}/revoke`)],
      ['dashboard role of member of A', await form(outsider, `/dashboard/team/members/${members.developer.userId}/role`, { role: 'admin' })],
      ['dashboard new project in A', await form(outsider, `/dashboard/orgs/${orgA}/projects`, { name: 'x' })],
      ['dashboard switch to project of A', await form(outsider, '/dashboard/switch', { org_id: orgA, project_id: projectA })],
    ];
    for (const [name, res] of checks) if (res.status !== 404) failures.push(`${name}: ${res.status}`);
    // Outsider's team listing shows only their own org.
    const mine = await (await json(outsider, 'GET', '/v1/team/members')).json();
    expect(mine.data.map((m: { email: string }) => m.email)).toEqual([outsider.email]);
    expect(failures).toEqual([]);
    // Nothing of org A changed hands: the invitation is still pending, the developer still a developer.
    expect((await sql('select status from invitations where id = $1', [inv]))[0]).toEqual({ status: 'pending' });
    expect((await sql('select role from memberships where user_id = $1 and org_id = $2', [members.developer.userId, orgA]))[0]).toEqual({ role: 'developer' });
  }, 240_000);

  it('the owner rules: admins cannot touch owners, the last owner stays', async () => {
    const admin = members.admin;
    expect((await json(admin, 'PATCH', `/v1/team/members/${owner.userId}`, { role: 'developer' })).status).toBe(403);
    expect((await json(admin, 'POST', '/v1/team/invitations', { email: uniqueEmail('o'), role: 'owner' })).status).toBe(403);
    const last = await json(owner, 'PATCH', `/v1/team/members/${owner.userId}`, { role: 'admin' });
    expect(last.status).toBe(409);
    expect((await last.json()).code).toBe('last_owner');
  });

  it('the project API key keeps working on its own project and gets 404 on another', async () => {
    const r = await (await fetch(`${apiUrl()}/v1/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json();
    const own = await fetch(`${apiUrl()}/v1/projects/${r.project_id}/webhook`, { headers: { 'x-api-key': r.api_key } });
    expect(own.status).toBe(200);
    const other = await fetch(`${apiUrl()}/v1/projects/${projectA}/webhook`, { headers: { 'x-api-key': r.api_key } });
    expect(other.status).toBe(404);
    const team = await fetch(`${apiUrl()}/v1/team/members`, { headers: { 'x-api-key': r.api_key } });
    expect(team.status).toBe(401);
  });
});
