import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrm } from '../../db/orm.js';
import { SAMPLE_KYC_DEFINITION } from '../../domain/primitives.js';
import { CURRENT_ENGINE_PROFILE } from '../../domain/engine-profile.js';
import { CURRENT_POLICY_REVISION } from '../../domain/policy.js';
import { activateTemplate, createTemplate, publishFlowVersion, setFlowActive } from '../../services/flows.js';
import { api, sampleJpeg, signup, sql, stack, submit, tokenOf, upload, waitFor, waitForStatus } from '../helpers.js';
import { withTemporal } from '../temporal.js';

let orm: MikroORM;
beforeAll(async () => {
  orm = await createOrm(stack().databaseUrl);
});
afterAll(async () => {
  await orm.close();
});

const intake = (key: string, slug: string, body: unknown) => api('POST', `/v1/flows/${slug}/intake`, { key, json: body });
const validIntake = { payload: { full_name: 'Ana Luisa Prueba Ejemplo', date_of_birth: '1990-03-15', id_number: 'G12345678' }, verifiee: { email: 'ana@example.com' } };

describe('primitives registry', () => {
  it('is public and publishes each piece with its version and a JSON schema of its settings', async () => {
    const r = await api('GET', '/v1/primitives');
    expect(r.status).toBe(200);
    const types = r.body.primitives.map((p: { type: string }) => p.type);
    expect(types).toEqual(['document_capture', 'selfie_liveness', 'record_match', 'intake_shape']);
    for (const p of r.body.primitives) {
      expect(p.version).toBe(1);
      expect(p.settings_schema.type ?? p.settings_schema.anyOf ?? p.settings_schema.oneOf).toBeDefined();
    }
    const record = r.body.primitives.find((p: { type: string }) => p.type === 'record_match');
    expect(JSON.stringify(record.settings_schema)).toContain('contains');
  });
});

describe('Flow intake', () => {
  it('every sandbox project gets sample-kyc; intake answers exactly the spec’s Intake response and stores claimed and verifiee as PII', async () => {
    const { key } = await signup();
    const flows = await api('GET', '/v1/flows', { key });
    expect(flows.body.data.map((f: { slug: string }) => f.slug)).toEqual(['sample-kyc']);
    const r = await intake(key, 'sample-kyc', validIntake);
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(['flow_id', 'flow_slug', 'flow_version_ref', 'id', 'link', 'onboarding_url', 'short_url', 'status']);
    expect(r.body).toMatchObject({ flow_slug: 'sample-kyc', flow_version_ref: 1, status: 'collecting' });
    expect(r.body.link).toBe(r.body.short_url);
    const [row] = await sql<{ claimed: unknown; verifiee: unknown; applicant: Record<string, unknown> }>('select claimed, verifiee, applicant from verifications where id = $1', [r.body.id]);
    expect(row!.claimed).toEqual(validIntake.payload); // no explicit claimed → the whole payload
    expect(row!.verifiee).toEqual({ email: 'ana@example.com' });
    expect(row!.applicant).toEqual({ full_name: 'Ana Luisa Prueba Ejemplo', date_of_birth: '1990-03-15', document_number: 'G12345678' });
    const v = await api('GET', `/v1/verifications/${r.body.id}`, { key });
    expect(v.body).toMatchObject({ flow_id: r.body.flow_id, flow_version_ref: 1, engine_profile: CURRENT_ENGINE_PROFILE, policy_revision: CURRENT_POLICY_REVISION });

    const explicit = await intake(key, 'sample-kyc', { ...validIntake, claimed: { full_name: 'Other Record' } });
    const [row2] = await sql<{ claimed: unknown }>('select claimed from verifications where id = $1', [explicit.body.id]);
    expect(row2!.claimed).toEqual({ full_name: 'Other Record' });
  });

  it('names a missing required key, and wrong types, in a 400 that creates nothing', async () => {
    const { projectId, key } = await signup();
    const before = (await sql('select id from verifications where project_id = $1', [projectId])).length;
    const missing = await intake(key, 'sample-kyc', { payload: { full_name: 'Ana' }, verifiee: { email: 'ana@example.com' } });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toContain('date_of_birth');
    expect(missing.body.errors).toEqual([{ field: 'payload.date_of_birth', code: 'required', message: expect.any(String) }]);
    const types = await intake(key, 'sample-kyc', { payload: { full_name: 42, date_of_birth: '15/03/1990', shoe_size: 9 }, verifiee: { email: 'ana@example.com' } });
    expect(types.status).toBe(400);
    expect(types.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['payload.date_of_birth', 'payload.full_name', 'payload.shoe_size']);
    const noEmail = await intake(key, 'sample-kyc', { payload: validIntake.payload, verifiee: { email: 'not-an-email' } });
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.errors[0].field).toBe('verifiee.email');
    expect((await sql('select id from verifications where project_id = $1', [projectId])).length).toBe(before);
  });

  it('answers 404 for an unknown slug, an inactive Flow and another project’s Flow', async () => {
    const a = await signup('a');
    const b = await signup('b');
    const em = orm.em.fork();
    const t = await createTemplate(em, a.projectId, 'A only', SAMPLE_KYC_DEFINITION);
    await activateTemplate(em, a.projectId, t.id, 'a-onboarding');
    expect((await intake(a.key, 'a-onboarding', validIntake)).status).toBe(201);
    expect((await intake(b.key, 'a-onboarding', validIntake)).status).toBe(404);
    expect((await intake(a.key, 'no-such-flow', validIntake)).status).toBe(404);
    await setFlowActive(em, a.projectId, 'a-onboarding', false);
    const inactive = await intake(a.key, 'a-onboarding', validIntake);
    expect(inactive.status).toBe(404);
    expect(inactive.body.code).toBe('not_found');
  });

  it('stamps Flow, version, engine profile and policy revision as PII-free search attributes in Temporal', async () => {
    const { key } = await signup();
    const r = await intake(key, 'sample-kyc', validIntake);
    const found = await withTemporal((c) =>
      waitFor(async () => {
        const ids: string[] = [];
        for await (const w of c.workflow.list({ query: `FlowId = '${r.body.flow_id}' AND FlowVersion = 1 AND EngineProfile = '${CURRENT_ENGINE_PROFILE}' AND PolicyRevision = '${CURRENT_POLICY_REVISION}'` })) ids.push(w.workflowId);
        return ids.includes(`case-${r.body.id}`) ? ids : null;
      }, 20_000, 500),
    );
    expect(found).toContain(`case-${r.body.id}`);
  });
});

describe('Flow versions', () => {
  it('editing a live Flow publishes version n+1 under the same slug, and a running Case finishes under its own version', async () => {
    const { projectId, key } = await signup();
    const running = await intake(key, 'sample-kyc', validIntake);
    expect(running.body.flow_version_ref).toBe(1);

    // v2 accepts only Mexican passports; the running Case keeps v1's documents (MOZ national ID).
    const em = orm.em.fork();
    const v2 = await createTemplate(em, projectId, 'Sample KYC v2', {
      pieces: SAMPLE_KYC_DEFINITION.pieces.map((p) => (p.type === 'document_capture' ? { ...p, settings: { accepted_documents: [{ country: 'MX', types: ['passport'] }] } } : p)),
    });
    const published = await publishFlowVersion(em, projectId, 'sample-kyc', v2.id);
    expect(published.version).toBe(2);
    const later = await intake(key, 'sample-kyc', validIntake);
    expect(later.body).toMatchObject({ flow_version_ref: 2, flow_id: running.body.flow_id, flow_slug: 'sample-kyc' });
    expect((await api('GET', `/o/${tokenOf(later.body.onboarding_url)}/session`)).body.accepted_documents).toEqual([{ country: 'MEX', types: ['passport'] }]);

    const token = tokenOf(running.body.onboarding_url);
    expect((await api('GET', `/o/${token}/session`)).body.accepted_documents[0].country).toBe('MOZ');
    expect((await upload(token, 'document_front', await sampleJpeg())).status).toBe(201);
    expect((await submit(token, { country: 'MOZ', type: 'national_id' })).status).toBe(202);
    const done = await waitForStatus(key, running.body.id, ['completed', 'failed']);
    expect(done.flow_version_ref).toBe(1);
    expect(done.result.decision.flow_version_ref).toBe(1);
  });
});
