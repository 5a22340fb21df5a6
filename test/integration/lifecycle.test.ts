import { describe, expect, it } from 'vitest';
import { CURRENT_ENGINE_PROFILE } from '../../domain/engine-profile.js';
import { CURRENT_POLICY_REVISION } from '../../domain/policy.js';
import { api, createVerification, sampleJpeg, signup, submit, tokenOf, upload, waitForStatus } from '../helpers.js';

describe('verification lifecycle', () => {
  it('creates at once, captures, processes and completes as assessment_incomplete while checks are unavailable', async () => {
    const { key } = await signup();
    const t0 = Date.now();
    const created = await createVerification(key);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(created.id).toMatch(/^ver_/);
    const token = tokenOf(created.onboarding_url);

    const session = await api('GET', `/o/${token}/session`);
    expect(session.status).toBe(200);
    expect(session.body.status).toBe('collecting');

    expect((await upload(token, 'document_front', await sampleJpeg())).status).toBe(201);
    expect((await submit(token)).status).toBe(202);

    const done = await waitForStatus(key, created.id, ['completed', 'failed']);
    expect(done.status).toBe('completed');
    expect(done.assessment).toBe('assessment_incomplete');
    expect(done.summary_reasons).toContain('document_ocr_unavailable');
    expect(done.result.checks.document_ocr.status).toBe('unavailable');
    expect(done.engine_profile).toBe(CURRENT_ENGINE_PROFILE);
    expect(done.policy_revision).toBe(CURRENT_POLICY_REVISION);
  });
});
