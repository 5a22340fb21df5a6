import { describe, expect, it } from 'vitest';
import { Browser, csrfOf, signIn, uniqueEmail, userIdOf } from '../dashboard-helpers.js';
import { countRows, sql, stack } from '../helpers.js';

const apiUrl = () => stack().apiUrl;

async function ownerSession() {
  const email = uniqueEmail('teamowner');
  const s = await signIn('google', email);
  const csrf = await csrfOf(s.browser);
  const userId = await userIdOf(email);
  const orgId = (await sql<{ org_id: string }>('select org_id from memberships where user_id = $1', [userId]))[0]!.org_id;
  const projectId = (await sql<{ id: string }>('select id from projects where org_id = $1', [orgId]))[0]!.id;
  const call = (method: string, path: string, body?: unknown) => s.browser.fetch(`${apiUrl()}${path}`, { method, ...(body !== undefined ? { json: body } : {}), headers: method === 'GET' ? {} : { 'x-csrf-token': csrf } });
  return { browser: s.browser, csrf, userId, orgId, projectId, call };
}

describe('team: invitations and members', () => {
  it('an invitee joins at the next sign-in with that verified email, with the invited role; no personal org is made', async () => {
    const o = await ownerSession();
    const email = uniqueEmail('invitee');
    const created = await o.call('POST', '/v1/team/invitations', { email: email.toUpperCase(), role: 'compliance' });
    expect(created.status).toBe(201);
    const inv = await created.json();
    expect(inv).toMatchObject({ email, role: 'compliance', status: 'pending' });
    expect((await (await o.call('GET', '/v1/team/invitations')).json()).data.map((i: { id: string }) => i.id)).toEqual([inv.id]);

    const joined = await signIn('github', email);
    expect(joined.landing).toBe(`${apiUrl()}/dashboard`);
    const uid = await userIdOf(email);
    expect(await sql('select org_id, role from memberships where user_id = $1', [uid])).toEqual([{ org_id: o.orgId, role: 'compliance' }]);
    expect((await sql('select status, accepted_user_id from invitations where id = $1', [inv.id]))[0]).toEqual({ status: 'accepted', accepted_user_id: uid });
    expect((await (await o.call('GET', '/v1/team/invitations')).json()).data).toEqual([]);
    const membersList = (await (await o.call('GET', '/v1/team/members')).json()).data;
    expect(membersList.map((m: { email: string; role: string }) => [m.email, m.role]).sort()).toEqual([[email, 'compliance'], [(await sql<{ email: string }>('select email from users where id = $1', [o.userId]))[0]!.email, 'owner']].sort());
    // The invitee lands in the org's project and sees it.
    const home = await joined.browser.fetch(`${apiUrl()}/dashboard`);
    expect(home.headers.get('location')).toBe(`/dashboard/projects/${o.projectId}/keys`);
    // Revoking an accepted invitation is a conflict, not a silent change.
    expect((await o.call('DELETE', `/v1/team/invitations/${inv.id}`)).status).toBe(409);
  });

  it('a revoked invitation is not honoured; revoking twice is idempotent', async () => {
    const o = await ownerSession();
    const email = uniqueEmail('revoked');
    const inv = await (await o.call('POST', '/v1/team/invitations', { email, role: 'admin' })).json();
    expect((await o.call('DELETE', `/v1/team/invitations/${inv.id}`)).status).toBe(204);
    expect((await o.call('DELETE', `/v1/team/invitations/${inv.id}`)).status).toBe(204);
    await signIn('google', email);
    const uid = await userIdOf(email);
    expect(await countRows('memberships', 'user_id = $1 and org_id = $2', [uid, o.orgId])).toBe(0);
    // They got their own sandbox org instead.
    expect(await sql('select role from memberships where user_id = $1', [uid])).toEqual([{ role: 'owner' }]);
  });

  it('bad invitations answer problem+json naming the field and change nothing', async () => {
    const o = await ownerSession();
    const before = await countRows('invitations', 'org_id = $1', [o.orgId]);
    const badEmail = await o.call('POST', '/v1/team/invitations', { email: 'not-an-email', role: 'admin' });
    expect(badEmail.status).toBe(400);
    expect((await badEmail.json()).errors[0].field).toBe('email');
    const badRole = await o.call('POST', '/v1/team/invitations', { email: uniqueEmail('x'), role: 'superuser' });
    expect(badRole.status).toBe(400);
    expect((await badRole.json()).errors[0].field).toBe('role');
    const email = uniqueEmail('dup');
    expect((await o.call('POST', '/v1/team/invitations', { email, role: 'developer' })).status).toBe(201);
    const dup = await o.call('POST', '/v1/team/invitations', { email, role: 'admin' });
    expect(dup.status).toBe(409);
    expect((await dup.json()).errors[0]).toMatchObject({ field: 'email', code: 'already_invited' });
    const self = await o.call('POST', '/v1/team/invitations', { email: (await sql<{ email: string }>('select email from users where id = $1', [o.userId]))[0]!.email, role: 'developer' });
    expect(self.status).toBe(409);
    expect(await countRows('invitations', 'org_id = $1', [o.orgId])).toBe(before + 1);
  });

  it('invites through the dashboard form, changes a role, removes a member (who then gets 404), all audited without PII', async () => {
    const o = await ownerSession();
    const email = uniqueEmail('formed');
    const r = await o.browser.fetch(`${apiUrl()}/dashboard/team/invitations`, { form: { email, role: 'developer', _csrf: o.csrf } });
    expect(r.status).toBe(303);
    const teamPage = await (await o.browser.fetch(`${apiUrl()}/dashboard/team`)).text();
    expect(teamPage).toContain(email);
    const m = await signIn('google', email);
    const uid = await userIdOf(email);
    expect((await o.browser.fetch(`${apiUrl()}/dashboard/team/members/${uid}/role`, { form: { role: 'admin', _csrf: o.csrf } })).status).toBe(303);
    expect((await sql('select role from memberships where user_id = $1 and org_id = $2', [uid, o.orgId]))[0]).toEqual({ role: 'admin' });
    expect((await m.browser.fetch(`${apiUrl()}/dashboard/projects/${o.projectId}/keys`)).status).toBe(200);
    expect((await o.call('DELETE', `/v1/team/members/${uid}`)).status).toBe(204);
    expect((await m.browser.fetch(`${apiUrl()}/dashboard/projects/${o.projectId}/keys`)).status).toBe(404);

    const audit = await sql<{ action: string; target_id: string | null; meta: unknown }>('select action, target_id, meta from audit_events where org_id = $1 order by created_at, id', [o.orgId]);
    expect(audit.map((a) => a.action)).toEqual(['session.signed_in', 'invitation.created', 'invitation.accepted', 'session.signed_in', 'member.role_changed', 'member.removed']);
    expect(JSON.stringify(audit)).not.toContain('@');
    // Owners read it in the dashboard, with the actor's email joined at read time.
    const page = await (await o.browser.fetch(`${apiUrl()}/dashboard/audit`)).text();
    expect(page).toContain('member.role_changed');
    expect(page).toContain('from=developer');
    expect(page).toContain('to=admin');
  });

  it('audits project creation in the dashboard and key rotation by the API key', async () => {
    const o = await ownerSession();
    const r = await o.browser.fetch(`${apiUrl()}/dashboard/orgs/${o.orgId}/projects`, { form: { name: 'Second project', _csrf: o.csrf } });
    expect(r.status).toBe(303);
    const second = /prj_[0-9A-Z]{26}/.exec(r.headers.get('location')!)![0];
    expect((await sql('select org_id, sandbox from projects where id = $1', [second]))[0]).toEqual({ org_id: o.orgId, sandbox: true });
    const created = await o.call('POST', `/v1/projects/${second}/keys`, { name: 'rotating' });
    const raw = (await created.json()).api_key;
    const rotated = await fetch(`${apiUrl()}/v1/keys/rotate`, { method: 'POST', headers: { 'x-api-key': raw } });
    expect(rotated.status).toBe(200);
    const rows = await sql<{ action: string; actor_user_id: string | null; actor_api_key_id: string | null; project_id: string }>(
      `select action, actor_user_id, actor_api_key_id, project_id from audit_events where org_id = $1 and action in ('project.created', 'key.created', 'key.rotated') order by created_at, id`, [o.orgId]);
    expect(rows.map((x) => [x.action, Boolean(x.actor_user_id), Boolean(x.actor_api_key_id), x.project_id])).toEqual([
      ['project.created', true, false, second], ['key.created', true, false, second], ['key.rotated', false, true, second],
    ]);
  });

  it('the OpenAPI document carries the team and project routes with both ways in', async () => {
    const doc = await (await fetch(`${apiUrl()}/v1/openapi.json`)).json();
    for (const p of ['/v1/team/members', '/v1/team/members/{user_id}', '/v1/team/invitations', '/v1/team/invitations/{id}']) expect(Object.keys(doc.paths)).toContain(p);
    expect(Object.keys(doc.paths['/v1/team/invitations'])).toEqual(['get', 'post']);
    expect(doc.paths['/v1/projects/{project_id}/keys'].post.security).toEqual([{ apiKey: [] }, { session: [], csrf: [] }]);
    expect(doc.components.securitySchemes.session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'ivs_session' });
    expect(doc.components.securitySchemes.csrf).toMatchObject({ in: 'header', name: 'X-CSRF-Token' });
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/dashboard') || p.startsWith('/auth'))).toBe(false);
  });

  it('session requests need the session: no cookie is 401, a foreign cookie value is 401', async () => {
    expect((await fetch(`${apiUrl()}/v1/team/members`)).status).toBe(401);
    const b = new Browser();
    b.set(apiUrl(), 'ivs_session', 'x'.repeat(43));
    expect((await b.fetch(`${apiUrl()}/v1/team/invitations`)).status).toBe(401);
  });
});
