import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { GRID_TILE_FEATURE_NAMES, gridTiles } from './grid-tiles.js';

/**
 * Per-tile non-aligned grid search on REAL document photographs (../shared/documents-real, read
 * in place). A resize first removes the source file's own JPEG history, so "one save" is one.
 */
const HERE = path.dirname(fileURLToPath(import.meta.url));
const DOCS = path.resolve(HERE, '../../../../shared/documents-real');
const docFile = (prefix: string) => path.join(DOCS, readdirSync(DOCS).find((f) => f.startsWith(prefix))!);
const feature = (f: number[], name: (typeof GRID_TILE_FEATURE_NAMES)[number]) => f[GRID_TILE_FEATURE_NAMES.indexOf(name)]!;

async function onceSaved(prefix: string, quality: number, width: number): Promise<Buffer> {
  return sharp(readFileSync(docFile(prefix))).resize({ width }).jpeg({ quality, chromaSubsampling: '4:2:0' }).toBuffer();
}

/** The engine's luma (decoded RGB → BT.601 Y), as features.ts computes it. */
async function analyse(bytes: Buffer) {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const luma = new Float32Array(info.width * info.height);
  for (let i = 0; i < luma.length; i++) luma[i] = 0.299 * data[3 * i]! + 0.587 * data[3 * i + 1]! + 0.114 * data[3 * i + 2]!;
  return gridTiles(luma, info.width, info.height);
}

describe('per-tile non-aligned grid search (feature set v6)', () => {
  const HOST = 'developer79433__passport_mrz_detector_cpp__examples__passport_01';
  const DONOR = 'SerdarHelli__MRZ_Passport_Reader_From_Image__example.jpg';

  it('flags no cluster in a photo saved once, and boxes a region pasted from another JPEG on its own grid', async () => {
    const host = await onceSaved(HOST, 90, 1280);
    const once = await analyse(host);
    expect(once.available).toBe(true);
    expect(once.boxes).toHaveLength(0);
    expect(feature(once.features, 'gt_cluster_tiles')).toBeLessThanOrEqual(Math.log1p(1));

    // Donor: another real photo saved at q70 and pasted at (419, 301): its grid is at phase (3, 5).
    const donor = await sharp(readFileSync(docFile(DONOR))).resize(420, 320).jpeg({ quality: 70 }).toBuffer();
    const region = { x: 419, y: 301, width: 420, height: 320 };
    const forged = await sharp(host).composite([{ input: donor, left: region.x, top: region.y }]).jpeg({ quality: 92, chromaSubsampling: '4:2:0' }).toBuffer();
    const result = await analyse(forged);
    expect(result.boxes.length).toBeGreaterThanOrEqual(1);
    const b = result.boxes[0]!;
    expect(b.phase).toEqual([301 % 8, 419 % 8]);
    // The box lies inside the pasted region (tiles are 128 px: it covers the tiles fully inside).
    expect(b.x).toBeGreaterThanOrEqual(region.x - 8);
    expect(b.y).toBeGreaterThanOrEqual(region.y - 8);
    expect(b.x + b.width).toBeLessThanOrEqual(region.x + region.width + 64);
    expect(b.y + b.height).toBeLessThanOrEqual(region.y + region.height + 64);
    expect(feature(result.features, 'gt_cluster_contrast')).toBeGreaterThan(feature(once.features, 'gt_cluster_contrast') + 10);
  });

  it('sees one foreign phase over the whole frame after a crop between two saves', async () => {
    const first = await onceSaved(HOST, 75, 1280);
    const meta = await sharp(first).metadata();
    const cropped = await sharp(first).extract({ left: 3, top: 6, width: meta.width! - 3, height: meta.height! - 6 }).jpeg({ quality: 92 }).toBuffer();
    const once = await analyse(first);
    const twice = await analyse(cropped);
    expect(feature(twice.features, 'gt_global_z')).toBeGreaterThan(2 * Math.max(10, feature(once.features, 'gt_global_z')));
  });

  it('is unavailable on an image too small for two tiles and never throws', async () => {
    const tiny = await sharp({ create: { width: 200, height: 120, channels: 3, background: '#808080' } }).jpeg().toBuffer();
    expect((await analyse(tiny)).available).toBe(false);
    const flat = await sharp({ create: { width: 512, height: 512, channels: 3, background: '#808080' } }).jpeg().toBuffer();
    const r = await analyse(flat);
    expect(r.available).toBe(true);
    expect(r.boxes).toHaveLength(0);
    expect(r.features.every(Number.isFinite)).toBe(true);
  });
});
