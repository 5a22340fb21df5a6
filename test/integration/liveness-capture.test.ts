import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ZLivenessChallenge } from '../../domain/liveness.js';
import { api, countRows, createVerification, sampleJpeg, signup, stack, tokenOf, upload } from '../helpers.js';

describe('liveness challenge in the capture API', () => {
  it('issues a challenge bound to the session; frames must carry its nonce; a new challenge discards earlier frames', async () => {
    const { key } = await signup();
    const v = await createVerification(key);
    const token = tokenOf(v.onboarding_url);
    const frame = await sampleJpeg(320, 240, 20);

    const early = await upload(token, 'liveness_frame', frame, 'f.jpg', { nonce: 'a'.repeat(32), timestamp_ms: 0, colour: 'red' });
    expect(early.status).toBe(409);
    expect(early.body.errors[0]).toMatchObject({ field: 'meta.nonce', code: 'no_challenge' });

    const c1 = await api('POST', `/o/${token}/challenge`);
    expect(c1.status).toBe(201);
    const challenge = ZLivenessChallenge.parse(c1.body);
    expect(challenge.steps.length).toBeGreaterThanOrEqual(1);
    expect((await api('GET', `/o/${token}/session`)).body.challenge.nonce).toBe(challenge.nonce);

    const noMeta = await upload(token, 'liveness_frame', frame, 'f.jpg');
    expect(noMeta.status).toBe(400);
    expect(noMeta.body.errors[0].field).toMatch(/^meta/);
    const wrong = await upload(token, 'liveness_frame', frame, 'f.jpg', { nonce: 'b'.repeat(32), timestamp_ms: 100, colour: 'red' });
    expect(wrong.status).toBe(409);
    expect(wrong.body.errors[0].code).toBe('challenge_mismatch');
    for (let i = 0; i < 3; i++) {
      expect((await upload(token, 'liveness_frame', frame, 'f.jpg', { nonce: challenge.nonce, timestamp_ms: i * 100, colour: challenge.colours[0]!.colour })).status).toBe(201);
    }
    // The hosted page's camera facts (liveness v4 injection evidence) ride along; malformed ones are refused, naming the field, and store nothing.
    const facts = { label: 'HD Webcam (046d:082c)', settings: { frameRate: 30, width: 640 }, capabilities: ['exposureMode'], devices: { videoinput: 1, audioinput: 1, audiooutput: 1 }, clock: 'capture' };
    const badCamera = await upload(token, 'liveness_frame', frame, 'f.jpg', { nonce: challenge.nonce, timestamp_ms: 300, colour: challenge.colours[0]!.colour, source: facts, camera: { presented: 3, duplicates: -1, intervals_ms: [] } });
    expect(badCamera.status).toBe(400);
    expect(badCamera.body.errors[0].field).toBe('meta.camera.duplicates');
    const tooMany = await upload(token, 'liveness_frame', frame, 'f.jpg', { nonce: challenge.nonce, timestamp_ms: 300, colour: challenge.colours[0]!.colour, camera: { presented: 3, duplicates: 0, intervals_ms: Array(65).fill(33) } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors[0].field).toBe('meta.camera.intervals_ms');
    expect(await countRows('uploads', "verification_id = $1 and kind = 'liveness_frame'", [v.id])).toBe(3);
    expect((await upload(token, 'liveness_frame', frame, 'f.jpg', { nonce: challenge.nonce, timestamp_ms: 300, colour: challenge.colours[0]!.colour, source: facts, camera: { presented: 3, duplicates: 0, intervals_ms: [33.3, 33.4, 33.2] } })).status).toBe(201);
    expect(await countRows('uploads', "verification_id = $1 and kind = 'liveness_frame'", [v.id])).toBe(4);
    const blobDir = path.join(stack().dataDir, 'blobs', v.id);
    expect(readdirSync(blobDir)).toHaveLength(4);

    const c2 = await api('POST', `/o/${token}/challenge`);
    expect(c2.body.nonce).not.toBe(challenge.nonce);
    expect(await countRows('uploads', "verification_id = $1 and kind = 'liveness_frame'", [v.id])).toBe(0);
    expect(existsSync(blobDir) ? readdirSync(blobDir) : []).toHaveLength(0);
    const stale = await upload(token, 'liveness_frame', frame, 'f.jpg', { nonce: challenge.nonce, timestamp_ms: 500, colour: 'red' });
    expect(stale.status).toBe(409);
  });

  it('offers a cross-device QR code that opens a fresh session of the same Case', async () => {
    const { key } = await signup();
    const v = await createVerification(key);
    const res = await fetch(`${stack().apiUrl}/o/${tokenOf(v.onboarding_url)}/handoff.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('image/svg+xml');
    expect(await res.text()).toMatch(/^<svg/);
  });
});
