import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { facesDir } from '../../engine/assets.js';
import { api, countRows, createVerification, signup, tokenOf } from '../helpers.js';

/** A real photo as the hosted page sends its live preview: 320 × 240 JPEG. */
const previewOf = async (file: string) => sharp(await readFile(path.join(facesDir(), file))).resize(320, 240, { fit: 'cover' }).jpeg({ quality: 70 }).toBuffer();
const post = (token: string, body: Buffer, type = 'image/jpeg') => api('POST', `/o/${token}/preview`, { body: new Uint8Array(body), headers: { 'content-type': type } });

describe('POST /o/{token}/preview (the hosted page\'s live preview check)', () => {
  it('answers faces and pose from the real detector, stores nothing, and refuses bad frames with problem+json', async () => {
    const { key } = await signup('live preview');
    const v = await createVerification(key);
    const token = tokenOf(v.onboarding_url);
    const uploadsBefore = await countRows('uploads');

    const one = await post(token, await previewOf('obama.jpg'));
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ status: 'checked', faces: 1 });
    expect(Math.abs(one.body.face.yaw)).toBeLessThan(0.2);
    const two = await post(token, await previewOf('two_people.jpg'));
    expect(two.body.faces).toBeGreaterThanOrEqual(2);
    expect(await countRows('uploads')).toBe(uploadsBefore);

    const notImage = await post(token, Buffer.from('definitely not a picture'));
    expect(notImage.status).toBe(415);
    expect(notImage.body).toMatchObject({ code: 'unsupported_image_format', errors: [{ field: 'body' }] });
    const big = await post(token, await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).jpeg({ quality: 100 }).toBuffer());
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('payload_too_large');
    const empty = await post(token, Buffer.alloc(0));
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0].field).toBe('body');
    expect((await post('not-a-token-at-all-0123456789', await previewOf('obama.jpg'))).status).toBe(401);
  }, 60_000);
});
