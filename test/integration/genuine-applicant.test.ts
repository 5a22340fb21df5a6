import { describe, expect, it } from 'vitest';
import { prepareGenuineApplicant } from '../../bench/genuine-case.js';
import { api, sampleJpeg, signup, sql, submit, tokenOf, upload, waitForStatus } from '../helpers.js';

describe('a genuine applicant end to end', () => {
  it('reads the passport, passes liveness against its challenge, matches the face and concludes no_material_concerns', async () => {
    // The live capture: a real clip of a person turning left, right and nodding, with the issued
    // colours simulated on the face (tools/faces/testing), for a timed-script challenge whose slots
    // follow the clip's labelled motion (bench/liveness-labels.json). The passport carries the same
    // person's frontal frame and is photographed with the project's phone-camera model (optics,
    // sensor noise, EXIF), saved with Annex K tables as real phones of the corpus do. The same
    // applicant drives bench:cases and chaos (bench/genuine-case.ts).
    const { frames, challenge, identity: id, photographNow } = await prepareGenuineApplicant();
    const front = await photographNow();
    const { key } = await signup();
    const created = await api('POST', '/v1/verifications', {
      key,
      json: { accepted_documents: [{ country: 'MOZ', types: ['passport'] }], applicant: { given_names: id.given_names, surnames: id.surnames, date_of_birth: id.date_of_birth, document_number: id.document_number } },
    });
    const token = tokenOf(created.body.onboarding_url);
    // Seed the Case with the challenge the clip answers (the server would have issued a random one).
    const now = new Date();
    await sql('update verifications set liveness_challenge = $2 where id = $1', [created.body.id, { ...challenge, issued_at: now.toISOString(), deadline: new Date(now.getTime() + 600_000).toISOString() }]);
    expect((await upload(token, 'document_front', front)).status).toBe(201);
    for (const f of frames) expect((await upload(token, 'liveness_frame', f.image, 'f.jpg', f.meta)).status).toBe(201);
    expect((await submit(token, { country: 'MOZ', type: 'passport' })).status).toBe(202);

    const done = await waitForStatus(key, created.body.id, ['completed', 'failed'], 180_000);
    const checks = done.result.checks;
    const brief = Object.fromEntries(Object.entries(checks).map(([k, v]) => [k, [(v as { status: string }).status, (v as { reasons: string[] }).reasons]]));
    expect(brief).toMatchObject({
      document_ocr: ['passed', []],
      template_match: ['passed', []],
      liveness: ['passed', []],
      face_match: ['passed', []],
    });
    expect(done.assessment, JSON.stringify(brief)).toBe('no_material_concerns');
    expect(done.summary_reasons).toEqual([]);
    expect(done.confidence).toBeGreaterThan(0.5);
    // The checks derived images for each other (document crop, best frame); the capture session
    // still answers, listing only the applicant's own uploads (it answered 500 once they existed).
    const derived = await sql<{ kind: string }>("select kind from uploads where verification_id = $1 and kind in ('document_normalized', 'liveness_best')", [created.body.id]);
    expect(derived.length).toBeGreaterThan(0);
    const session = await api('GET', `/o/${token}/session`);
    expect(session.status).toBe(200);
    expect(session.body.status).toBe('completed');
    expect(new Set(session.body.uploads.map((u: { kind: string }) => u.kind))).toEqual(new Set(['document_front', 'liveness_frame']));
    // Every capture route, asked again of the processed Case (a reloaded page, a stale tab), answers
    // without a 5xx: reads as before, writes refused with a problem, nothing changed.
    const answers = {
      page: (await fetch(created.body.onboarding_url)).status,
      handoff: (await fetch(`${created.body.onboarding_url}/handoff.svg`)).status,
      challenge: (await api('POST', `/o/${token}/challenge`, { json: {} })).status,
      preview: (await api('POST', `/o/${token}/preview`, { body: new Uint8Array(await sampleJpeg(320, 240)), headers: { 'content-type': 'image/jpeg' } })).status,
      upload: (await upload(token, 'document_back', front)).status,
      frame: (await upload(token, 'liveness_frame', frames[0]!.image, 'f.jpg', frames[0]!.meta)).status,
      submit: (await submit(token, { country: 'MOZ', type: 'passport' })).status,
    };
    expect(Object.values(answers).every((status) => status < 500), JSON.stringify(answers)).toBe(true);
    expect(answers).toEqual({ page: 200, handoff: 200, challenge: 409, preview: 409, upload: 409, frame: 409, submit: 409 });
    const after = await api('GET', `/v1/verifications/${created.body.id}`, { key });
    expect([after.body.status, after.body.assessment]).toEqual(['completed', 'no_material_concerns']);
  }, 300_000);
});
