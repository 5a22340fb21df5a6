import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { facesDir, modelsDir } from '../assets.js';
import { createLivePreviewer } from '../capture-advice.js';
import { loadFacePreviewModel, type FacePreviewModel } from './preview.js';

/** A real photo as the page sends its preview: 320 × 240 JPEG, quality 0.7. */
async function previewOf(file: string, flip = false): Promise<Buffer> {
  let img = sharp(await readFile(path.join(facesDir(), file))).resize(320, 240, { fit: 'cover' });
  if (flip) img = img.flop();
  return img.jpeg({ quality: 70 }).toBuffer();
}

let model: FacePreviewModel;
beforeAll(async () => {
  model = await loadFacePreviewModel(modelsDir());
});
afterAll(async () => {
  await model.release();
});

describe('live preview check on real photos', () => {
  it('one face: counted once, with a near-frontal yaw and the nose between eyes and mouth', async () => {
    const r = await model.detect(await previewOf('obama.jpg'));
    expect(r.faces).toBe(1);
    expect(Math.abs(r.face!.yaw)).toBeLessThan(0.2);
    expect(r.face!.pitch).toBeGreaterThan(0.3);
    expect(r.face!.pitch).toBeLessThan(0.8);
  });

  it('two people of comparable size: several faces', async () => {
    const r = await model.detect(await previewOf('two_people.jpg'));
    expect(r.faces).toBeGreaterThanOrEqual(2);
  });

  it('a mirrored picture mirrors the yaw (the page compares with its own straight look, so either sign works)', async () => {
    const a = await model.detect(await previewOf('rose_leslie_img1.jpg'));
    const b = await model.detect(await previewOf('rose_leslie_img1.jpg', true));
    expect(a.faces).toBe(1);
    expect(b.face!.yaw).toBeCloseTo(-a.face!.yaw, 1);
  });

  it('no face: zero faces, no pose', async () => {
    const grey = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 120, g: 120, b: 120 } } }).jpeg().toBuffer();
    expect(await model.detect(grey)).toEqual({ faces: 0, face: null });
  });
});

describe('createLivePreviewer (the port the api injects)', () => {
  it('answers checked with the detector, and unavailable — never a throw — for undecodable bytes or a missing model', async () => {
    const p = createLivePreviewer();
    const ok = await p.preview(await previewOf('obama.jpg'));
    expect(ok).toMatchObject({ status: 'checked', faces: 1 });
    expect(await p.preview(Buffer.from('not an image'))).toMatchObject({ status: 'unavailable', faces: 0, face: null });
    await p.close();
    const missing = createLivePreviewer({ modelsDir: '/nonexistent' });
    expect(await missing.warm()).toBe(false);
    expect(await missing.preview(await previewOf('obama.jpg'))).toMatchObject({ status: 'unavailable' });
  });
});
