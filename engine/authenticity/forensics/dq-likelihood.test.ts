import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readLumaCoefficients } from '../image/jpeg-coefficients.js';
import { ZIGZAG } from '../metadata/jpeg-structure.js';
import { DQL_FEATURE_NAMES, dqLikelihood } from './dq-likelihood.js';

/**
 * Aligned double-JPEG likelihood on REAL document photographs (../shared/documents-real, read in
 * place). A resize first removes the source file's own JPEG history, so "one save" is exactly one.
 */
const HERE = path.dirname(fileURLToPath(import.meta.url));
const DOCS = path.resolve(HERE, '../../../../shared/documents-real');
const docFile = (prefix: string) => path.join(DOCS, readdirSync(DOCS).find((f) => f.startsWith(prefix))!);
const feature = (f: number[], name: (typeof DQL_FEATURE_NAMES)[number]) => f[DQL_FEATURE_NAMES.indexOf(name)]!;

async function onceSaved(prefix: string, quality: number, width = 1024): Promise<Buffer> {
  return sharp(readFileSync(docFile(prefix))).resize({ width }).jpeg({ quality, chromaSubsampling: '4:2:0' }).toBuffer();
}

async function analyse(bytes: Buffer) {
  const meta = await sharp(bytes).metadata();
  const width = meta.width! & ~7;
  const height = meta.height! & ~7;
  return { result: dqLikelihood(readLumaCoefficients(bytes), { left: 0, top: 0, width, height }), coefficients: readLumaCoefficients(bytes)! };
}

describe('aligned double-JPEG likelihood (feature set v4)', () => {
  it('finds no first quantisation in one save, finds it after a second aligned save, and estimates the first step', async () => {
    const first = await onceSaved('developer79433__passport_mrz_detector_cpp__examples__passport_01', 60);
    const once = (await analyse(first)).result;
    expect(once.available).toBe(true);
    expect(feature(once.features, 'dql_selected_share')).toBeLessThanOrEqual(0.1);
    expect(feature(once.features, 'dql_llr_mean')).toBeLessThan(0.01);

    const second = await sharp(first).jpeg({ quality: 95, chromaSubsampling: '4:2:0' }).toBuffer();
    const twice = (await analyse(second)).result;
    expect(feature(twice.features, 'dql_selected_share')).toBeGreaterThanOrEqual(0.5);
    expect(feature(twice.features, 'dql_llr_mean')).toBeGreaterThan(0.05);
    // The estimated first step is the q60 table's step wherever that step is inside the searched
    // range (up to max(6·q2, 16)): the first ten zig-zag frequencies here.
    const table = readLumaCoefficients(first)!.table;
    const low = twice.selected.filter((s) => s.k <= 10);
    expect(low.length).toBeGreaterThanOrEqual(8);
    const right = low.filter((s) => Math.abs(s.q1 - table[ZIGZAG[s.k]!]!) < 0.3).length;
    expect(right / low.length).toBeGreaterThanOrEqual(0.8);
  });

  it('boxes a pasted region that was compressed once inside an image compressed twice', async () => {
    const first = await onceSaved('developer79433__passport_mrz_detector_cpp__examples__passport_01', 60);
    // Donor: another real photo, saved on its own grid, placed at a 3-px offset (not aligned).
    const donor = await sharp(await onceSaved('SerdarHelli__MRZ_Passport_Reader_From_Image__example.jpg', 80, 600)).extract({ left: 3, top: 5, width: 256, height: 192 }).toBuffer();
    const region = { x: 512, y: 192, width: 256, height: 192 };
    const forged = await sharp(first).composite([{ input: donor, left: region.x, top: region.y }]).jpeg({ quality: 95, chromaSubsampling: '4:2:0' }).toBuffer();
    const { result } = await analyse(forged);
    expect(result.boxes.length).toBeGreaterThanOrEqual(1);
    const b = result.boxes[0]!;
    const ix = Math.max(0, Math.min(b.x + b.width, region.x + region.width) - Math.max(b.x, region.x));
    const iy = Math.max(0, Math.min(b.y + b.height, region.y + region.height) - Math.max(b.y, region.y));
    const inter = ix * iy;
    const iou = inter / (b.width * b.height + region.width * region.height - inter);
    expect(iou).toBeGreaterThan(0.4);
    expect(feature(result.features, 'dql_map_cluster_contrast')).toBeGreaterThan(10);
  });

  it('is unavailable without exact coefficients and never throws on a tiny image', async () => {
    expect(dqLikelihood(null, { left: 0, top: 0, width: 64, height: 64 }).available).toBe(false);
    const tiny = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#808080' } }).jpeg().toBuffer();
    expect(dqLikelihood(readLumaCoefficients(tiny), { left: 0, top: 0, width: 40, height: 40 }).available).toBe(false);
  });
});
