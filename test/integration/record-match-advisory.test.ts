import { describe, expect, it } from 'vitest';
import { genuinePassportForTests, livenessFramesForTests } from '../fixtures.js';
import { api, signup, submit, tokenOf, upload, waitForStatus } from '../helpers.js';
import { withTemporal } from '../temporal.js';

describe('record match is evidence only', () => {
  it('two Cases identical but for a divergent claimed record get the same assessment, confidence and reasons', async () => {
    const { key } = await signup();
    const doc = await genuinePassportForTests(11);
    const fullName = `${doc.truth.given_names} ${doc.truth.surnames}`;
    const payload = { full_name: fullName, date_of_birth: doc.truth.date_of_birth, id_number: doc.truth.document_number };
    const claims = [payload, { full_name: 'Someone Else Entirely', date_of_birth: '1970-01-01', id_number: 'ZZ0000000' }];
    const results = [];
    for (const claimed of claims) {
      const r = await api('POST', '/v1/flows/sample-kyc/intake', { key, json: { payload, claimed, verifiee: { email: 'applicant@example.com' } } });
      expect(r.status).toBe(201);
      const token = tokenOf(r.body.onboarding_url);
      expect((await upload(token, 'document_front', doc.image)).status).toBe(201);
      const challenge = (await api('POST', `/o/${token}/challenge`)).body;
      for (const f of await livenessFramesForTests(challenge)) expect((await upload(token, 'liveness_frame', f.image, 'f.jpg', f.meta)).status).toBe(201);
      expect((await submit(token, { country: 'MOZ', type: 'passport' })).status).toBe(202);
      results.push(await waitForStatus(key, r.body.id, ['completed', 'failed'], 180_000));
    }
    const [same, divergent] = results;
    expect(same.result.checks.document_ocr.evidence.extracted.document_number).toBe(doc.truth.document_number);
    expect(same.result.checks.record_match.status).toBe('passed');
    expect(divergent.result.checks.record_match.status).toBe('review');
    expect(divergent.result.checks.record_match.reasons).toEqual(expect.arrayContaining(['record_name_divergence', 'record_date_of_birth_divergence', 'record_number_divergence']));
    expect(divergent.assessment).toBe(same.assessment);
    expect(divergent.confidence).toBe(same.confidence);
    expect(divergent.summary_reasons).toEqual(same.summary_reasons);
    for (const reason of divergent.summary_reasons) expect(reason).not.toMatch(/^record_/);

    // the history of a Case whose document was really read still carries no applicant data
    const history = JSON.stringify(await withTemporal((c) => c.workflow.getHandle(`case-${same.id}`).fetchHistory()));
    const decoded = [...history.matchAll(/"data":"([A-Za-z0-9+/=]+)"/g)].map((m) => Buffer.from(m[1]!, 'base64').toString('utf8')).join('\n');
    for (const needle of [doc.truth.surnames, doc.truth.document_number, doc.truth.date_of_birth]) {
      expect(history).not.toContain(needle);
      expect(decoded).not.toContain(needle);
    }
  }, 400_000);
});
