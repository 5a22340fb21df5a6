import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../domain/ids.js';
import { REVIEW_WORKFLOW_TYPE, reviewWorkflowId } from '../../domain/workflow-messages.js';
import { verifyWebhook } from '../../sdk/webhook-verify.js';
import { Browser, csrfOf, signIn, uniqueEmail, userIdOf } from '../dashboard-helpers.js';
import { api, createVerification, sampleJpeg, sql, stack, submit, tokenOf, upload, waitFor, waitForStatus, webhookReceiver } from '../helpers.js';
import { withTemporal } from '../temporal.js';

/**
 * Customer dispositions through real HTTP, PostgreSQL, Temporal and the worker: recorded by a
 * `compliance` member, refused to a `developer` (403) and to a member of another org (404);
 * `verification.reviewed` is delivered, signed, and verifies with the SDK helper; the assessment
 * never changes; erasure removes the notes and keeps the trace.
 */
interface Who { browser: Browser; csrf: string; userId: string; email: string }
const apiUrl = () => stack().apiUrl;
async function who(email: string): Promise<Who> {
  const s = await signIn('google', email);
  return { browser: s.browser, csrf: await csrfOf(s.browser), userId: await userIdOf(email), email };
}
const json = (w: Who, method: string, path: string, body?: unknown, csrf = w.csrf) =>
  w.browser.fetch(`${apiUrl()}${path}`, { method, ...(body !== undefined ? { json: body } : {}), headers: method === 'GET' ? {} : { 'x-csrf-token': csrf } });

let owner: Who;
let compliance: Who;
let developer: Who;
let outsider: Who;
let projectA: string;
let key: string;

async function completedCase(): Promise<string> {
  const v = await createVerification(key);
  const token = tokenOf(v.onboarding_url);
  expect((await upload(token, 'document_front', await sampleJpeg())).status).toBe(201);
  expect((await submit(token)).status).toBe(202);
  await waitForStatus(key, v.id, ['completed', 'failed'], 120_000);
  return v.id;
}

beforeAll(async () => {
  owner = await who(uniqueEmail('owner'));
  const orgA = (await sql<{ org_id: string }>('select org_id from memberships where user_id = $1', [owner.userId]))[0]!.org_id;
  projectA = (await sql<{ id: string }>('select id from projects where org_id = $1', [orgA]))[0]!.id;
  for (const role of ['developer', 'compliance'] as const) {
    const email = uniqueEmail(role);
    expect((await json(owner, 'POST', '/v1/team/invitations', { email, role })).status).toBe(201);
    if (role === 'developer') developer = await who(email);
    else compliance = await who(email);
  }
  outsider = await who(uniqueEmail('outsider'));
  const created = await json(owner, 'POST', `/v1/projects/${projectA}/keys`, { name: 'ci' });
  expect(created.status).toBe(201);
  key = (await created.json()).api_key;
}, 180_000);

describe('customer disposition', () => {
  it('compliance records it; verification.reviewed arrives signed; the assessment does not change', async () => {
    const receiver = await webhookReceiver(() => 204);
    try {
      const put = await json(owner, 'PUT', `/v1/projects/${projectA}/webhook`, { url: receiver.url });
      expect(put.status).toBe(200);
      const secret = (await put.json()).secret as string;
      const id = await completedCase();
      await waitFor(async () => receiver.received.length >= 1); // verification.completed
      const before = (await api('GET', `/v1/verifications/${id}`, { key })).body;
      const rowBefore = (await sql('select assessment, confidence, summary_reasons, result, status from verifications where id = $1', [id]))[0];

      const note = 'Called the customer; ANA LUISA confirmed by phone.';
      const r = await json(compliance, 'POST', `/v1/verifications/${id}/disposition`, { state: 'customer_concern_recorded', note });
      expect(r.status).toBe(201);
      const d = await r.json();
      expect(d).toMatchObject({ verification_id: id, state: 'customer_concern_recorded', note, note_erased: false, recorded_by: { user_id: compliance.userId, email: compliance.email } });

      await waitFor(async () => receiver.received.find((h) => h.headers['x-service-event'] === 'verification.reviewed'), 60_000);
      const hook = receiver.received.find((h) => h.headers['x-service-event'] === 'verification.reviewed')!;
      expect(verifyWebhook({ secret, body: hook.raw, timestamp: hook.headers['x-service-timestamp'] as string, signature: hook.headers['x-service-signature'] as string })).toEqual({ ok: true });
      expect(verifyWebhook({ secret: 'whsec_other', body: hook.raw, timestamp: hook.headers['x-service-timestamp'] as string, signature: hook.headers['x-service-signature'] as string }).ok).toBe(false);
      const body = JSON.parse(hook.raw.toString('utf8'));
      expect(Object.keys(body).sort()).toEqual(['advisory', 'assessment', 'confidence', 'customer_disposition', 'event', 'evidence_available', 'id', 'review', 'status', 'summary_reasons', 'type']);
      expect(body).toMatchObject({ event: 'verification.reviewed', id, customer_disposition: 'customer_concern_recorded', review: { state: 'customer_concern_recorded', at: d.recorded_at }, assessment: before.assessment, confidence: before.confidence, summary_reasons: before.summary_reasons });
      expect(hook.raw.toString()).not.toContain('ANA LUISA'); // the note never leaves
      // The delivery is recorded like the others, and the history row carries it by workflow.
      expect((await sql('select count(*)::int as n from webhook_deliveries where verification_id = $1 and event = $2 and status_code = 204', [id, 'verification.reviewed']))[0]).toEqual({ n: 1 });

      // A second disposition appends; GET shows the latest; nothing of the assessment moved.
      expect((await json(owner, 'POST', `/v1/verifications/${id}/disposition`, { state: 'no_customer_concerns_recorded' })).status).toBe(201);
      const after = (await api('GET', `/v1/verifications/${id}`, { key })).body;
      expect(after.customer_disposition).toBe('no_customer_concerns_recorded');
      expect(after.review.state).toBe('no_customer_concerns_recorded');
      for (const k of ['assessment', 'confidence', 'summary_reasons', 'result', 'status', 'engine_profile', 'policy_revision']) expect(after[k]).toEqual(before[k]);
      expect((await sql('select assessment, confidence, summary_reasons, result, status from verifications where id = $1', [id]))[0]).toEqual(rowBefore);
      const history = await (await json(developer, 'GET', `/v1/verifications/${id}/dispositions`)).json();
      expect(history.data.map((x: { state: string }) => x.state)).toEqual(['no_customer_concerns_recorded', 'customer_concern_recorded']);
      await waitFor(async () => receiver.received.filter((h) => h.headers['x-service-event'] === 'verification.reviewed').length >= 2, 60_000);
      expect((await sql<{ action: string }>("select action from audit_events where target_id = $1 and action = 'case.disposition_recorded'", [id])).length).toBe(2);
    } finally {
      await receiver.close();
    }
  }, 240_000);

  // The api starts the review workflow inside the transaction that records the disposition; its
  // delivery may run before that commit (CI, under load, lost the second event of the test above).
  // Here the commit is held back 3 s on purpose: the event must still arrive, once.
  it('delivers verification.reviewed when the disposition commits after its workflow started', async () => {
    const receiver = await webhookReceiver(() => 204);
    const client = new pg.Client({ connectionString: stack().databaseUrl });
    await client.connect();
    try {
      expect((await json(owner, 'PUT', `/v1/projects/${projectA}/webhook`, { url: receiver.url })).status).toBe(200);
      const id = await completedCase();
      await waitFor(async () => receiver.received.length >= 1); // verification.completed
      const dispositionId = newId('disposition');
      await client.query('begin');
      await client.query('insert into case_dispositions (id, verification_id, project_id, actor_user_id, state, note, created_at) values ($1, $2, $3, $4, $5, null, now())', [dispositionId, id, projectA, compliance.userId, 'customer_review_continues']);
      await withTemporal((c) => c.workflow.start(REVIEW_WORKFLOW_TYPE, { workflowId: reviewWorkflowId(dispositionId), taskQueue: stack().env.TEMPORAL_TASK_QUEUE ?? 'cases', args: [{ caseId: id, dispositionId }] }));
      await new Promise((r) => setTimeout(r, 3000));
      await client.query('commit');
      const reviewed = () => receiver.received.filter((h) => h.headers['x-service-event'] === 'verification.reviewed');
      await waitFor(async () => reviewed().length >= 1, 60_000);
      expect(JSON.parse(reviewed()[0]!.raw.toString('utf8'))).toMatchObject({ id, customer_disposition: 'customer_review_continues' });
      const result = await withTemporal((c) => c.workflow.getHandle(reviewWorkflowId(dispositionId)).result());
      expect(result).toMatchObject({ delivered: true });
      expect(reviewed()).toHaveLength(1);
    } finally {
      await client.end();
      await receiver.close();
    }
  }, 180_000);

  it('refuses a developer (403), a member of another org (404), a bad state (400), a missing CSRF token (403): nothing recorded', async () => {
    const id = await completedCase();
    const dev = await json(developer, 'POST', `/v1/verifications/${id}/disposition`, { state: 'customer_concern_recorded' });
    expect(dev.status).toBe(403);
    const out = await json(outsider, 'POST', `/v1/verifications/${id}/disposition`, { state: 'customer_concern_recorded' });
    expect(out.status).toBe(404);
    expect((await json(outsider, 'GET', `/v1/verifications/${id}/dispositions`)).status).toBe(404);
    const bad = await json(compliance, 'POST', `/v1/verifications/${id}/disposition`, { state: 'approved' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify((await bad.json()).errors)).toContain('state');
    expect((await json(compliance, 'POST', `/v1/verifications/${id}/disposition`, { state: 'customer_concern_recorded' }, 'wrong')).status).toBe(403);
    const nokey = await fetch(`${apiUrl()}/v1/verifications/${id}/disposition`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ state: 'customer_concern_recorded' }) });
    expect(nokey.status).toBe(401); // an API key is not a teammate
    expect((await json(compliance, 'POST', '/v1/verifications/ver_01JZZZZZZZZZZZZZZZZZZZZZZZ/disposition', { state: 'customer_concern_recorded' })).status).toBe(404);
    expect((await sql('select count(*)::int as n from case_dispositions where verification_id = $1', [id]))[0]).toEqual({ n: 0 });
    expect((await api('GET', `/v1/verifications/${id}`, { key })).body.review).toBeUndefined();
  }, 240_000);

  it('erasure removes the notes and keeps the PII-free trace; no disposition after erasure', async () => {
    const id = await completedCase();
    expect((await json(compliance, 'POST', `/v1/verifications/${id}/disposition`, { state: 'customer_review_continues', note: 'Waiting for a utility bill from Ms PRUEBA.' })).status).toBe(201);
    const receipt = (await api('DELETE', `/v1/verifications/${id}`, { key })).body;
    expect(receipt.erased.fields).toContain('disposition_notes');
    const rows = await sql<{ note: string | null; note_erased_at: Date | null; state: string; actor_user_id: string }>('select note, note_erased_at, state, actor_user_id from case_dispositions where verification_id = $1', [id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ note: null, state: 'customer_review_continues', actor_user_id: compliance.userId });
    expect(rows[0]!.note_erased_at).not.toBeNull();
    const history = await (await json(compliance, 'GET', `/v1/verifications/${id}/dispositions`)).json();
    expect(history.data[0]).toMatchObject({ state: 'customer_review_continues', note: null, note_erased: true });
    const again = await json(compliance, 'POST', `/v1/verifications/${id}/disposition`, { state: 'customer_concern_recorded' });
    expect(again.status).toBe(409);
  }, 240_000);

  it('the Case pages pass the guard: PII captures only with cases:read_pii, no-store; outsiders get 404', async () => {
    const id = await completedCase();
    const page = (w: Who, p: string) => w.browser.fetch(`${apiUrl()}${p}`);
    const base = `/dashboard/projects/${projectA}/verifications`;
    const upload = (await sql<{ id: string }>("select id from uploads where verification_id = $1 and kind = 'document_front'", [id]))[0]!.id;
    const capture = `${base}/${id}/captures/${upload}`;
    const detail = await page(compliance, `${base}/${id}`);
    expect(detail.status).toBe(200);
    expect(await detail.text()).toContain(capture);
    const img = await page(compliance, capture);
    expect(img.status).toBe(200);
    expect(img.headers.get('cache-control')).toBe('no-store');
    expect(img.headers.get('content-type')).toMatch(/^image\//);
    expect((await page(developer, `${base}/${id}`)).status).toBe(200);
    expect(await (await page(developer, `${base}/${id}`)).text()).not.toContain('/captures/');
    expect((await page(developer, capture)).status).toBe(403);
    for (const p of [base, `${base}/${id}`, capture, `/dashboard/projects/${projectA}/review`]) expect((await page(outsider, p)).status).toBe(404);
    expect((await page(compliance, `/dashboard/projects/${projectA}/review`)).status).toBe(200);
    expect((await page(owner, `${base}?search=${id}`)).status).toBe(200);
    expect((await page(owner, `${base}?status=approved`)).status).toBe(400);
    // Erasure from the page needs cases:erase and the confirmation box.
    const erase = (w: Who, fields: Record<string, string>) => w.browser.fetch(`${apiUrl()}${base}/${id}/erase`, { form: { _csrf: w.csrf, ...fields } });
    expect((await erase(developer, { confirm: '1' })).status).toBe(403);
    expect((await erase(outsider, { confirm: '1' })).status).toBe(404);
    expect((await erase(compliance, {})).status).toBe(400);
    expect((await sql('select status from verifications where id = $1', [id]))[0]).toEqual({ status: 'completed' });
    const done = await erase(compliance, { confirm: '1' });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Erasure receipt');
    expect((await sql('select status from verifications where id = $1', [id]))[0]).toEqual({ status: 'erased' });
    expect((await page(compliance, capture)).status).toBe(404);
  }, 240_000);

  it('the Flows page: flows:manage for owner, admin and developer; compliance 403; outsiders 404', async () => {
    const form = (w: Who, p: string, fields: Record<string, string> = {}) => w.browser.fetch(`${apiUrl()}${p}`, { form: { _csrf: w.csrf, ...fields } });
    const flows = `/dashboard/projects/${projectA}/flows`;
    expect((await compliance.browser.fetch(`${apiUrl()}${flows}`)).status).toBe(200);
    expect((await outsider.browser.fetch(`${apiUrl()}${flows}`)).status).toBe(404);
    expect((await form(compliance, `${flows}/sample-kyc/deactivate`)).status).toBe(403);
    expect((await form(outsider, `${flows}/sample-kyc/deactivate`)).status).toBe(404);
    expect((await form(compliance, `${flows}/sample-kyc/versions`, { definition: '{}' })).status).toBe(403);
    expect((await sql("select active from flows where project_id = $1 and slug = 'sample-kyc'", [projectA]))[0]).toEqual({ active: true });
    expect((await form(developer, `${flows}/sample-kyc/deactivate`)).status).toBe(303);
    expect((await sql("select active from flows where project_id = $1 and slug = 'sample-kyc'", [projectA]))[0]).toEqual({ active: false });
    expect((await form(developer, `${flows}/sample-kyc/activate`)).status).toBe(303);
    const bad = await form(developer, `${flows}/sample-kyc/versions`, { definition: '{"pieces": 3' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('not valid JSON');
  }, 120_000);
});
