import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZLivenessChallenge, ZLivenessFrameMeta, type TLivenessChallenge, type TLivenessFrameMeta } from '../domain/liveness.js';
import { CURRENT_ENGINE_PROFILE } from '../domain/engine-profile.js';
import { prepareGenuineApplicant, type GenuineApplicant } from '../bench/genuine-case.js';
import { createAuthenticityEngine, type AuthenticityEngine } from './authenticity/index.js';
import { createDocumentEngine, type DocumentEngine } from './document/index.js';
import { startEngineThread } from './engine-thread.js';
import { createFaceEngine, type FaceEngine } from './faces/index.js';
import { engineProfile } from './profiles.js';

// A speed change must not change an answer: the engines in their threads give exactly what the
// same engines give in process, on bench:cases' genuine applicant (real clip frames, the passport
// photographed with the phone-camera model). Only run times may differ.
const profile = engineProfile(CURRENT_ENGINE_PROFILE);
let applicant: GenuineApplicant;
let photo: Buffer;
let frames: { image: Buffer; meta: TLivenessFrameMeta }[];
let challenge: TLivenessChallenge;
const now = new Date();
const local: { document?: DocumentEngine; faces?: FaceEngine; authenticity?: AuthenticityEngine } = {};
const threaded: typeof local = {};

beforeAll(async () => {
  applicant = await prepareGenuineApplicant();
  photo = await applicant.photographNow();
  frames = applicant.frames.map((f) => ({ image: f.image, meta: ZLivenessFrameMeta.parse(f.meta) }));
  challenge = ZLivenessChallenge.parse({ ...applicant.challenge, issued_at: new Date(now.getTime() - 60_000).toISOString(), deadline: new Date(now.getTime() + 600_000).toISOString() });
  [local.document, local.faces, local.authenticity, threaded.document, threaded.faces, threaded.authenticity] = await Promise.all([
    createDocumentEngine(profile.document), createFaceEngine(profile.faces), createAuthenticityEngine(profile.authenticity),
    startEngineThread<DocumentEngine>('document', profile.id, ['analyze', 'scanMrz', 'quickQuality']),
    startEngineThread<FaceEngine>('faces', profile.id, ['evaluateLiveness', 'matchFaces']),
    startEngineThread<AuthenticityEngine>('authenticity', profile.id, ['analyze']),
  ]);
}, 180_000);

afterAll(async () => {
  await Promise.all([...Object.values(local), ...Object.values(threaded)].map((e) => e?.close()));
});

/** Run times (`duration_ms`, each OCR attempt's `ms`) are the only fields allowed to differ. */
function withoutTimes(v: unknown): unknown {
  if (Buffer.isBuffer(v)) return v.toString('base64');
  if (Array.isArray(v)) return v.map(withoutTimes);
  if (v && typeof v === 'object' && !(v instanceof Date)) return Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'duration_ms' && k !== 'ms').map(([k, x]) => [k, withoutTimes(x)]));
  return v;
}

describe('engines in worker threads', () => {
  it('the document, authenticity, liveness and face-match outputs equal the in-process engines\'', async () => {
    const docInput = { front: photo, declared: { country: 'MOZ', type: 'passport' as const }, accepted: [{ country: 'MOZ', types: ['passport'] }], applicant: applicant.identity, now };
    const authInput = { bytes: photo, kind: 'document_front' as const, sessionStartedAt: new Date(now.getTime() - 60_000), submittedAt: now };
    const liveInput = { frames, challenge, now };
    const [d0, a0, l0] = [await local.document!.analyze(docInput), await local.authenticity!.analyze(authInput), await local.faces!.evaluateLiveness(liveInput)];
    const [d1, a1, l1] = await Promise.all([threaded.document!.analyze(docInput), threaded.authenticity!.analyze(authInput), threaded.faces!.evaluateLiveness(liveInput)]);
    // Not a vacuous comparison: the genuine applicant passes every check.
    expect([d0.ocr.status, d0.template.status, a0.status, l0.outcome.status]).toEqual(['passed', 'passed', 'passed', 'passed']);
    expect(withoutTimes(d1)).toEqual(withoutTimes(d0));
    expect(withoutTimes(a1)).toEqual(withoutTimes(a0));
    expect(withoutTimes(l1)).toEqual(withoutTimes(l0));
    // Buffers come back as Buffers (the activities store them as derived uploads).
    expect(Buffer.isBuffer(d1.normalized) && Buffer.isBuffer(l1.bestFrame)).toBe(true);
    const matchInput = { selfie: l0.bestFrame!, document: d0.normalized!, portraitBox: d0.portrait };
    const [m0, m1] = [await local.faces!.matchFaces(matchInput), await threaded.faces!.matchFaces(matchInput)];
    expect(m0.status).toBe('passed');
    expect(withoutTimes(m1)).toEqual(withoutTimes(m0));
    expect(threaded.document!.settings).toEqual(local.document!.settings);
    expect(threaded.document!.models).toEqual(local.document!.models);
  }, 120_000);

  it('an engine error keeps its code; a profile the build lacks fails the start', async () => {
    const err = await threaded.authenticity!.analyze({ bytes: Buffer.from('not an image'), kind: 'document_front', sessionStartedAt: now }).catch((e: unknown) => e);
    const direct = await local.authenticity!.analyze({ bytes: Buffer.from('not an image'), kind: 'document_front', sessionStartedAt: now }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as { code?: string }).code).toBeDefined();
    expect((err as { code?: string }).code).toBe((direct as { code?: string }).code);
    await expect(startEngineThread('faces', 'ep-no-such-profile', ['matchFaces'])).rejects.toThrow(/unknown engine profile/);
  }, 60_000);
});
