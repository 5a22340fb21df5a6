import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ZLivenessChallenge } from '../../domain/liveness.js';
import { api, countRows, createVerification, sampleJpeg, signup, sql, stack, submit, tokenOf, upload, uploadFrames } from '../helpers.js';

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

  it('takes frames in groups, all or none: a refused group names its frame and stores nothing', async () => {
    const { key } = await signup();
    const v = await createVerification(key);
    const token = tokenOf(v.onboarding_url);
    const frame = await sampleJpeg(320, 240, 20);
    const rows = () => countRows('uploads', "verification_id = $1 and kind = 'liveness_frame'", [v.id]);
    const blobDir = path.join(stack().dataDir, 'blobs', v.id);
    const blobs = () => (existsSync(blobDir) ? readdirSync(blobDir).length : 0);

    const early = await uploadFrames(token, [{ file: frame, meta: { nonce: 'a'.repeat(32), timestamp_ms: 0, colour: 'red' } }]);
    expect(early.status).toBe(409);
    expect(early.body.errors[0]).toMatchObject({ field: 'frames[0].meta.nonce', code: 'no_challenge' });

    const challenge = ZLivenessChallenge.parse((await api('POST', `/o/${token}/challenge`)).body);
    const meta = (i: number, extra: Record<string, unknown> = {}) => ({ nonce: challenge.nonce, timestamp_ms: i * 100, colour: challenge.colours[0]!.colour, ...extra });
    const group = (from: number, n: number) => Array.from({ length: n }, (_, k) => ({ file: frame, meta: meta(from + k) }));

    const ok = await uploadFrames(token, group(0, 16));
    expect(ok.status).toBe(201);
    expect(ok.body.uploads).toHaveLength(16);
    expect(new Set(ok.body.uploads.map((u: { upload_id: string }) => u.upload_id)).size).toBe(16);
    expect(ok.body.uploads[0]).toMatchObject({ kind: 'liveness_frame', sha256: createHash('sha256').update(frame).digest('hex') });
    expect(await rows()).toBe(16);
    expect(blobs()).toBe(16);
    // Each stored row keeps its own frame's meta.
    const stamps = await sql<{ t: number }>("select (meta->>'timestamp_ms')::int as t from uploads where verification_id = $1 and kind = 'liveness_frame' order by 1", [v.id]);
    expect(stamps.map((r) => r.t)).toEqual(Array.from({ length: 16 }, (_, i) => i * 100));

    // One bad frame refuses the whole group, naming it; nothing of the group is kept.
    const mixed = group(16, 5);
    mixed[2] = { file: frame, meta: { ...meta(18), nonce: 'b'.repeat(32) } };
    const mismatch = await uploadFrames(token, mixed);
    expect(mismatch.status).toBe(409);
    expect(mismatch.body.errors[0]).toMatchObject({ field: 'frames[2].meta.nonce', code: 'challenge_mismatch' });
    const corrupt = group(16, 3);
    corrupt[1] = { file: frame.subarray(0, 200), meta: meta(17) };
    const unreadable = await uploadFrames(token, corrupt);
    expect(unreadable.status).toBe(422);
    expect(unreadable.body.errors[0]).toMatchObject({ field: 'frames[1].file', code: 'image_unreadable' });
    const badCamera = await uploadFrames(token, [{ file: frame, meta: meta(16) }, { file: frame, meta: meta(17, { camera: { presented: 3, duplicates: -1, intervals_ms: [] } }) }]);
    expect(badCamera.status).toBe(400);
    expect(badCamera.body.errors[0].field).toBe('frames[1].meta.camera.duplicates');
    const noMeta = await uploadFrames(token, [{ file: frame, meta: meta(16) }, { file: frame }]);
    expect(noMeta.status).toBe(400);
    expect(noMeta.body.errors[0]).toMatchObject({ field: 'frames[1].meta', code: 'required' });
    const notJson = await uploadFrames(token, [{ file: frame, meta: '{nope' }]);
    expect(notJson.status).toBe(400);
    expect(notJson.body.errors[0]).toMatchObject({ field: 'frames[0].meta', code: 'invalid_json' });
    const tooMany = await uploadFrames(token, group(16, 17));
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.errors[0]).toMatchObject({ field: 'file', code: 'too_many_files' });
    const trailing = new FormData();
    trailing.append('meta', JSON.stringify(meta(16)));
    trailing.append('file', new Blob([new Uint8Array(frame)]), 'f.jpg');
    trailing.append('meta', JSON.stringify(meta(17)));
    const dangling = await api('POST', `/o/${token}/frames`, { body: trailing });
    expect(dangling.status).toBe(400);
    expect(dangling.body.errors[0]).toMatchObject({ field: 'frames[1].file', code: 'required' });
    const empty = await api('POST', `/o/${token}/frames`, { body: new FormData() });
    expect(empty.status).toBe(400);
    expect(await rows()).toBe(16);
    expect(blobs()).toBe(16);

    // The Case's upload quota counts every frame of a group: 120 by default, 16 stored.
    for (let from = 16; from < 112; from += 16) expect((await uploadFrames(token, group(from, 16))).status).toBe(201);
    expect(await rows()).toBe(112);
    const over = await uploadFrames(token, group(112, 9));
    expect(over.status).toBe(413);
    expect(over.body.errors[0].code).toBe('too_many_uploads');
    expect(await rows()).toBe(112);
    expect(blobs()).toBe(112);

    expect((await uploadFrames('x'.repeat(43), group(112, 1))).status).toBe(401);
    expect((await upload(token, 'document_front', await sampleJpeg())).status).toBe(201);
    expect((await submit(token)).status).toBe(202);
    const closed = await uploadFrames(token, group(112, 1));
    expect(closed.status).toBe(409);
    expect(closed.body.code).toBe('capture_already_submitted');
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
