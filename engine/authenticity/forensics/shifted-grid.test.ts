import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { facesDir } from '../../assets.js';
import { shiftedGridLattice } from './shifted-grid.js';

/** Decoded luma of a JPEG, as the engine computes it from RGB. */
async function lumaOf(jpeg: Buffer) {
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  const luma = new Float32Array(info.width * info.height);
  for (let i = 0; i < luma.length; i++) luma[i] = 0.299 * data[3 * i]! + 0.587 * data[3 * i + 1]! + 0.114 * data[3 * i + 2]!;
  return { luma, width: info.width, height: info.height };
}

/** Decode, cut `left`/`top` pixels off, save again: what an editor does on "crop, save". */
async function cropAndSave(jpeg: Buffer, left: number, top: number, quality: number): Promise<Buffer> {
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
    .extract({ left, top, width: info.width - left - 4, height: info.height - top - 4 })
    .jpeg({ quality })
    .toBuffer();
}

describe('shifted-grid lattice search', () => {
  it('finds the first save’s grid after a crop, and none in a single save or an aligned re-save', async () => {
    // A real photograph, saved once the way a phone would, then cropped and saved again.
    const photo = await sharp(path.join(facesDir(), 'biden.jpg')).resize({ width: 1024 }).removeAlpha().jpeg({ quality: 85 }).toBuffer();
    const once = await lumaOf(photo);
    const single = shiftedGridLattice(once.luma, once.width, once.height);
    const cropped = await lumaOf(await cropAndSave(photo, 3, 5, 97));
    const shifted = shiftedGridLattice(cropped.luma, cropped.width, cropped.height);
    const aligned = await lumaOf(await cropAndSave(photo, 8, 16, 97));
    const same = shiftedGridLattice(aligned.luma, aligned.width, aligned.height);

    // Cutting 3 columns and 5 rows puts the old grid's block corners at column 5 and row 3.
    expect(shifted.phase).toEqual([3, 5]);
    expect(shifted.agreement).toBe(3);
    expect(shifted.best).toBeGreaterThan(3 * single.best);
    expect(shifted.best).toBeGreaterThan(3 * same.best);
    expect(single.agreement).toBeLessThan(3);
    expect(same.agreement).toBeLessThan(3);
  });

  it('reports itself unavailable on an image too small to search', () => {
    expect(shiftedGridLattice(new Float32Array(40 * 40), 40, 40).available).toBe(false);
  });
});
