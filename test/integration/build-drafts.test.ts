import { beforeAll, describe, expect, it } from 'vitest';
import { Browser, csrfOf, signIn, uniqueEmail, userIdOf } from '../dashboard-helpers.js';
import { api, sql, stack, tokenOf } from '../helpers.js';

/**
 * The Build page's server side over real HTTP and PostgreSQL: refused input answers the page
 * with errors naming the field and writes nothing (drafts, Templates, Flows, audit), whatever
 * the body; another project's draft is 404; the read-only view for a role without flows:manage;
 * the hosted preview is the draft's own hosted page, framed by the dashboard only.
 */
interface Who { browser: Browser; csrf: string; userId: string }
const apiUrl = () => stack().apiUrl;
async function who(email: string): Promise<Who> {
  const s = await signIn('google', email);
  return { browser: s.browser, csrf: await csrfOf(s.browser), userId: await userIdOf(email) };
}
const post = (w: Who, path: string, fields: Record<string, string>) => w.browser.fetch(`${apiUrl()}${path}`, { form: { ...fields, _csrf: w.csrf } });
const get = (w: Who, path: string) => w.browser.fetch(`${apiUrl()}${path}`);

const valid = (name: string): Record<string, string> => ({
  name,
  'document_capture.__include': '1',
  'document_capture.accepted_documents.0.country': 'mx',
  'document_capture.accepted_documents.0.types[passport]': '1',
  'selfie_liveness.__include': '1',
  'selfie_liveness.step_count': '3',
  'record_match.__include': '1',
  'record_match.mode': 'rules',
  'record_match.rules.0.collected': 'document_number',
  'record_match.rules.0.claimed_key': 'id_number',
  'record_match.rules.0.operator': 'contains',
  'intake_shape.__include': '1',
  'intake_shape.fields.0.key': 'id_number',
  'intake_shape.fields.0.type': 'string',
  _op: 'save',
});

let owner: Who;
let compliance: Who;
let outsider: Who;
let projectA: string;
let projectB: string;
const counts = async (projectId: string) =>
  (await sql<{ d: number; t: number; f: number; a: number }>(
    `select (select count(*)::int from template_drafts where project_id = $1) as d, (select count(*)::int from templates where project_id = $1) as t,
            (select count(*)::int from flows where project_id = $1) as f, (select count(*)::int from audit_events where project_id = $1 and action like 'template_draft.%') as a`, [projectId]))[0]!;

beforeAll(async () => {
  owner = await who(uniqueEmail('b-owner'));
  projectA = (await sql<{ id: string }>('select p.id from projects p join memberships m on m.org_id = p.org_id where m.user_id = $1', [owner.userId]))[0]!.id;
  const email = uniqueEmail('b-compliance');
  const inv = await owner.browser.fetch(`${apiUrl()}/v1/team/invitations`, { json: { email, role: 'compliance' }, headers: { 'x-csrf-token': owner.csrf } });
  expect(inv.status).toBe(201);
  compliance = await who(email);
  outsider = await who(uniqueEmail('b-outsider'));
  projectB = (await sql<{ id: string }>('select p.id from projects p join memberships m on m.org_id = p.org_id where m.user_id = $1', [outsider.userId]))[0]!.id;
}, 120_000);

describe('Build drafts', () => {
  it('refuses bad input with the page and the field named, and writes nothing', async () => {
    const before = await counts(projectA);
    const cases: [Record<string, string>, string][] = [
      [{ ...valid('x'), 'document_capture.accepted_documents.0.country': 'ALL' }, 'document_capture.accepted_documents.0.country'],
      [{ ...valid('x'), 'document_capture.accepted_documents.0.types[passport]': undefined as unknown as string }, 'document_capture.accepted_documents.0.types'],
      [{ ...valid('x'), 'selfie_liveness.step_count': '9' }, 'selfie_liveness.step_count'],
      [{ ...valid('x'), 'record_match.rules.0.operator': 'startswith' }, 'record_match.rules.0.operator'],
      [{ ...valid('x'), 'intake_shape.fields.0.type': '' }, 'intake_shape.fields.0.type'],
      [{ ...valid(''), 'name': '   ' }, 'name'],
      [{ ...valid('x'), 'intake_shape.__include': undefined as unknown as string }, 'pieces'],
    ];
    for (const [fields, field] of cases) {
      const clean = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
      const r = await post(owner, `/dashboard/projects/${projectA}/build/drafts`, clean);
      expect(r.status, field).toBe(400);
      const page = await r.text();
      expect(page, field).toContain(`<code>${field}</code>`);
    }
    // A JSON body, an odd "add rows" target and a huge blank count: answered, never a crash.
    const json = await owner.browser.fetch(`${apiUrl()}/dashboard/projects/${projectA}/build/drafts`, { json: { name: 5, 'document_capture.__include': true, _csrf: owner.csrf }, headers: { 'x-csrf-token': owner.csrf } });
    expect(json.status).toBe(400);
    const add = await post(owner, `/dashboard/projects/${projectA}/build/drafts`, { ...valid('x'), _op: 'add:<script>', 'intake_shape.fields.__blanks': '99' });
    expect(add.status).toBe(200);
    expect(await add.text()).not.toContain('<script>');
    expect(await counts(projectA)).toEqual(before);
  });

  it('saves, normalises countries, keeps drafts per project, and activates with slug checks', async () => {
    const r = await post(owner, `/dashboard/projects/${projectA}/build/drafts`, valid('Mexico ids'));
    expect(r.status).toBe(303);
    const id = /tpd_[0-9A-Z]{26}/.exec(r.headers.get('location')!)![0];
    const row = (await sql<{ definition: { pieces: { type: string; settings: Record<string, unknown> }[] }; created_by_user_id: string }>('select definition, created_by_user_id from template_drafts where id = $1', [id]))[0]!;
    expect(row.definition.pieces[0]!.settings).toEqual({ accepted_documents: [{ country: 'MEX', types: ['passport'] }] });
    expect(row.created_by_user_id).toBe(owner.userId);
    // Another project's draft: 404 through that project, and the outsider's own project too.
    expect((await get(outsider, `/dashboard/projects/${projectB}/build/drafts/${id}`)).status).toBe(404);
    expect((await post(outsider, `/dashboard/projects/${projectB}/build/drafts/${id}/delete`, {})).status).toBe(404);
    expect((await get(outsider, `/dashboard/projects/${projectA}/build/drafts/${id}`)).status).toBe(404);
    // Slugs: bad → 400 naming it, nothing written; good → Flow v1 whose intake takes the draft's shape.
    const before = await counts(projectA);
    const bad = await post(owner, `/dashboard/projects/${projectA}/build/drafts/${id}/activate`, { slug: 'No Spaces!' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('act-slug-err');
    expect(await counts(projectA)).toEqual(before);
    const ok = await post(owner, `/dashboard/projects/${projectA}/build/drafts/${id}/activate`, { slug: 'mx-ids', name: 'Mexico IDs' });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toMatch(new RegExp(`^/dashboard/projects/${projectA}/flows\\?published=mx-ids&v=1#fl-flw_[0-9A-Z]{26}$`));
    const audit = await sql<{ action: string }>("select action from audit_events where project_id = $1 and action = 'flow.activated'", [projectA]);
    expect(audit.length).toBe(1);
    // Publishing the draft again as v2 of the same Flow.
    const pub = await post(owner, `/dashboard/projects/${projectA}/build/drafts/${id}/publish`, { flow: 'mx-ids' });
    expect(pub.headers.get('location')).toMatch(/published=mx-ids&v=2#fl-flw_/);
    const key = (await (await owner.browser.fetch(`${apiUrl()}/v1/projects/${projectA}/keys`, { json: { name: 'k' }, headers: { 'x-csrf-token': owner.csrf } })).json()).api_key;
    const intake = await api('POST', '/v1/flows/mx-ids/intake', { key, json: { payload: { id_number: 'G123' }, verifiee: { email: 'a@example.com' } } });
    expect(intake.status).toBe(201);
    expect(intake.body.flow_version_ref).toBe(2);
    // The hosted page's liveness challenge is the one the Flow's selfie-liveness piece asks for.
    const three = await api('POST', `/o/${tokenOf(intake.body.onboarding_url)}/challenge`);
    expect(three.status).toBe(201);
    expect(three.body.steps.length).toBe(3);
    const one = await post(owner, `/dashboard/projects/${projectA}/build/drafts`, { ...valid('Blink only'), 'selfie_liveness.step_count': '1', 'selfie_liveness.steps[blink]': '1' });
    const oneId = /tpd_[0-9A-Z]{26}/.exec(one.headers.get('location')!)![0];
    expect((await post(owner, `/dashboard/projects/${projectA}/build/drafts/${oneId}/activate`, { slug: 'blink-only' })).status).toBe(303);
    const blink = await api('POST', '/v1/flows/blink-only/intake', { key, json: { payload: { id_number: 'G123' }, verifiee: { email: 'a@example.com' } } });
    const challenge = await api('POST', `/o/${tokenOf(blink.body.onboarding_url)}/challenge`);
    expect(challenge.status).toBe(201);
    expect(challenge.body.steps).toEqual(['blink']);
    expect(challenge.body.slots.map((s: { step: string }) => s.step)).toEqual(['blink']);
  });

  it('a role without flows:manage sees the composer disabled and the hosted preview, and cannot write', async () => {
    const r = await post(owner, `/dashboard/projects/${projectA}/build/drafts`, valid('Read-only look'));
    const id = /tpd_[0-9A-Z]{26}/.exec(r.headers.get('location')!)![0];
    const page = await (await get(compliance, `/dashboard/projects/${projectA}/build/drafts/${id}`)).text();
    expect(page).toContain('<fieldset class="composer-body" disabled>');
    expect(page).not.toContain('/activate');
    expect((await post(compliance, `/dashboard/projects/${projectA}/build/drafts/${id}`, valid('changed'))).status).toBe(403);
    expect((await sql<{ name: string }>('select name from template_drafts where id = $1', [id]))[0]!.name).toBe('Read-only look');
    const hosted = await get(compliance, `/dashboard/projects/${projectA}/build/drafts/${id}/preview/hosted`);
    expect(hosted.status).toBe(200);
    expect(hosted.headers.get('content-security-policy')).toContain("form-action 'none'");
    expect(hosted.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    const html = await hosted.text();
    expect(html).toContain('<option value="MEX|passport">MEX — Passport</option>');
    expect(html).not.toContain('<script');
  });
});
