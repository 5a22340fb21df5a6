import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PRUNE_IDEMPOTENCY_SQL } from '../../services/idempotency.js';
import { api, countRows, SAMPLE_APPLICANT, signup, sql, stack, tokenOf, waitFor } from '../helpers.js';

/**
 * `Idempotency-Key` on creates: a client that lost a create's answer sends it again and gets the
 * Case it already made, never a second one (the chaos run found the gap: bench/chaos-run.ts).
 */
const body = { type: 'kyc', accepted_documents: [{ country: 'MEX', types: ['passport'] }], applicant: SAMPLE_APPLICANT, reference: 'crm-4411' };
const create = (key: string, idem: string | undefined, json: unknown = body) =>
  api('POST', '/v1/verifications', { key, json, headers: idem === undefined ? {} : { 'idempotency-key': idem } });
const intakeBody = { payload: { full_name: 'Ana Luisa Prueba Ejemplo', date_of_birth: '1990-03-15', id_number: 'G12345678' }, verifiee: { email: 'ana@example.com' } };
const cases = (projectId: string) => countRows('verifications', 'project_id = $1', [projectId]);

describe('Idempotency-Key on creates', () => {
  it('the same key and request answer the same Case (same short_url, a working fresh onboarding_url), marked Idempotent-Replayed; key order does not matter', async () => {
    const { projectId, key } = await signup();
    const idem = randomUUID();
    const first = await create(key, idem);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The same request with its keys in another order is the same request.
    const reordered = { reference: body.reference, applicant: { ...SAMPLE_APPLICANT }, accepted_documents: body.accepted_documents, type: 'kyc' };
    const again = await create(key, idem, reordered);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toMatchObject({ id: first.body.id, short_url: first.body.short_url, expires_at: first.body.expires_at, created_at: first.body.created_at, status: 'collecting' });
    expect(again.body.onboarding_url).not.toBe(first.body.onboarding_url); // a fresh session; the first stays valid
    for (const url of [first.body.onboarding_url, again.body.onboarding_url]) {
      const session = await api('GET', `/o/${tokenOf(url)}/session`);
      expect(session.status).toBe(200);
    }
    expect(await cases(projectId)).toBe(1);
    // Without a key, every create is a new Case, as before.
    expect((await create(key, undefined)).body.id).not.toBe(first.body.id);
    expect(await cases(projectId)).toBe(2);
  });

  it('the key with a different request is refused with 422 naming the header, and creates nothing', async () => {
    const { projectId, key } = await signup();
    const idem = randomUUID();
    expect((await create(key, idem)).status).toBe(201);
    const other = await create(key, idem, { ...body, reference: 'crm-9999' });
    expect(other.status).toBe(422);
    expect(other.headers.get('content-type')).toContain('application/problem+json');
    expect(other.body).toMatchObject({ code: 'idempotency_key_reused', errors: [{ field: 'Idempotency-Key', code: 'idempotency_key_reused' }] });
    // One key is one create on one route: the same key on Flow intake is another request too.
    const onIntake = await api('POST', '/v1/flows/sample-kyc/intake', { key, json: intakeBody, headers: { 'idempotency-key': idem } });
    expect(onIntake.status).toBe(422);
    expect(onIntake.body.code).toBe('idempotency_key_reused');
    expect(await cases(projectId)).toBe(1);
  });

  it('concurrent creates with one key make exactly one Case; all answer it', async () => {
    const { projectId, key } = await signup();
    const idem = randomUUID();
    const answers = await Promise.all(Array.from({ length: 6 }, () => create(key, idem)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(5);
    expect(await cases(projectId)).toBe(1);
    expect(await countRows('idempotency_keys', 'project_id = $1', [projectId])).toBe(1);
  });

  it('a create whose answer the client never read (it hung up once the Case was committed), sent again with its key, answers that Case', async () => {
    const { projectId, key } = await signup();
    const idem = randomUUID();
    const hangUp = new AbortController();
    const lost = fetch(`${stack().apiUrl}/v1/verifications`, {
      method: 'POST', signal: hangUp.signal,
      headers: { 'content-type': 'application/json', 'x-api-key': key, 'idempotency-key': idem }, body: JSON.stringify(body),
    }).catch(() => null);
    // The client hangs up as soon as the Case is committed, before it reads any answer.
    await waitFor(async () => (await cases(projectId)) === 1, 10_000);
    hangUp.abort();
    await lost;
    const again = await create(key, idem);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await cases(projectId)).toBe(1);
    const [row] = await sql<{ id: string }>('select id from verifications where project_id = $1', [projectId]);
    expect(again.body.id).toBe(row!.id);
  });

  it('keys are per project: another project\'s identical key makes its own Case', async () => {
    const a = await signup();
    const b = await signup();
    const idem = randomUUID();
    const ra = await create(a.key, idem);
    const rb = await create(b.key, idem);
    expect(ra.status).toBe(201);
    expect(rb.status).toBe(201);
    expect(rb.body.id).not.toBe(ra.body.id);
    expect(rb.headers.get('idempotent-replayed')).toBeNull();
  });

  it('Flow intake: the same key answers the same Case of the same Flow version', async () => {
    const { projectId, key } = await signup();
    const idem = randomUUID();
    const send = () => api('POST', '/v1/flows/sample-kyc/intake', { key, json: intakeBody, headers: { 'idempotency-key': idem } });
    const first = await send();
    const again = await send();
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toMatchObject({ id: first.body.id, flow_id: first.body.flow_id, flow_version_ref: first.body.flow_version_ref, short_url: first.body.short_url, link: first.body.short_url });
    expect(await cases(projectId)).toBe(1);
  });

  it('a malformed key is a 400 naming the header, before anything is written', async () => {
    const { projectId, key } = await signup();
    for (const bad of ['x'.repeat(256), 'clé-1', '']) {
      const r = await create(key, bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.code).toBe('validation_failed');
      expect(r.body.errors[0].field).toBe('idempotency-key');
    }
    expect(await cases(projectId)).toBe(0);
  });

  it('stores neither the key nor the request: HMACs and the sealed link code only', async () => {
    const { projectId, key } = await signup();
    const idem = `customer-ana.prueba@example.com-${randomUUID()}`;
    const r = await create(key, idem);
    const [row] = await sql<Record<string, string>>('select * from idempotency_keys where project_id = $1', [projectId]);
    expect(row!.verification_id).toBe(r.body.id);
    const stored = JSON.stringify(row);
    for (const secret of [idem, 'ana.prueba', SAMPLE_APPLICANT.surnames, SAMPLE_APPLICANT.document_number, body.reference, new URL(r.body.short_url).pathname.split('/').pop()!]) {
      expect(stored).not.toContain(secret);
    }
    expect(row!.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.request_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('once the Case stops collecting (erased here) the key answers 409 naming it; erasure drops the request HMAC and the link code', async () => {
    const { projectId, key } = await signup();
    const idem = randomUUID();
    const r = await create(key, idem);
    const erased = await api('DELETE', `/v1/verifications/${r.body.id}`, { key });
    expect(erased.status).toBe(200);
    expect(erased.body.erased.fields).toContain('idempotency_key');
    const [row] = await sql<{ request_hash: string | null; link_code_enc: string | null }>('select request_hash, link_code_enc from idempotency_keys where project_id = $1', [projectId]);
    expect(row).toEqual({ request_hash: null, link_code_enc: null });
    const again = await create(key, idem);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'idempotent_case_not_collecting', verification_id: r.body.id });
    expect(await cases(projectId)).toBe(1);
  });

  it('a Case whose link has expired is not handed out again; a key past its 24 h window makes a new Case', async () => {
    const { projectId, key } = await signup();
    const idem = randomUUID();
    const first = await create(key, idem);
    await sql(`update verifications set link_expires_at = now() - interval '1 second' where id = $1`, [first.body.id]);
    const expired = await create(key, idem);
    expect(expired.status).toBe(409);
    expect(expired.body).toMatchObject({ code: 'idempotent_case_not_collecting', verification_id: first.body.id });
    await sql(`update idempotency_keys set expires_at = now() - interval '1 second' where project_id = $1`, [projectId]);
    const fresh = await create(key, idem);
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    expect(fresh.body.id).not.toBe(first.body.id);
    const [row] = await sql<{ verification_id: string }>('select verification_id from idempotency_keys where project_id = $1', [projectId]);
    expect(row!.verification_id).toBe(fresh.body.id);
    expect(await cases(projectId)).toBe(2);
  });

  it('the api\'s prune deletes keys past their window and only those', async () => {
    const { projectId, key } = await signup();
    const [old, live] = [randomUUID(), randomUUID()];
    expect((await create(key, old)).status).toBe(201);
    expect((await create(key, live, { ...body, reference: 'crm-2' })).status).toBe(201);
    await sql(`update idempotency_keys set expires_at = now() - interval '1 second' where project_id = $1 and created_at = (select min(created_at) from idempotency_keys where project_id = $1)`, [projectId]);
    await sql(PRUNE_IDEMPOTENCY_SQL);
    expect(await countRows('idempotency_keys', 'project_id = $1', [projectId])).toBe(1);
    expect((await create(key, live, { ...body, reference: 'crm-2' })).headers.get('idempotent-replayed')).toBe('true');
  });

  it('the OpenAPI document declares the header on both creates, and the 409 and 422 answers', async () => {
    const doc = (await api('GET', '/v1/openapi.json')).body;
    for (const path of ['/v1/verifications', '/v1/flows/{slug}/intake']) {
      const op = doc.paths[path].post;
      const header = op.parameters.find((p: { in: string; name: string }) => p.in === 'header' && p.name === 'idempotency-key');
      expect(header, path).toMatchObject({ required: false, schema: { type: 'string', maxLength: 255 } });
      expect(Object.keys(op.responses), path).toEqual(expect.arrayContaining(['201', '409', '422']));
    }
  });
});
