/**
 * `npx tsx bench/augment-real.ts ../shared/documents-real .data/documents-real-aug`: degraded
 * copies of the real TUNING images only (never held-out ones; `isHeldOut` decides), for developing
 * the MRZ reader on harder captures than the tuning set holds without looking at held-out images.
 * Each unique picture gets four seeded degradations of what phone uploads suffer:
 * - `persp`: a keystone perspective (one side 18 % shorter) and 8° of roll, bilinear;
 * - `small`: downscaled so MRZ characters are about 8–10 px high, JPEG quality 60;
 * - `blur`: Gaussian σ 1.6 plus JPEG quality 35;
 * - `shade`: a left-to-right illumination ramp (35 %→100 %) and halved contrast.
 * `--variants tiny,tint` (document engine 2.3 development) writes two other kinds instead:
 * - `tiny`: scaled so the MRZ glyphs are 7, 8 or 9 px high (measured on the source by the band
 *   search's line height; the USCIS-card case), JPEG quality 75;
 * - `tint`: the page multiplied by a pale security-print colour (blue-green, pink or yellow-green)
 *   with a guilloche-like wave in the two channels that colour darkens, contrast lowered, glyphs at
 *   most 12 px, JPEG quality 70 with chroma subsampling (the tinted-crop case).
 * `--variants micro,pair` (document engine 2.5 development, the unreadable small-print case):
 * - `micro`: glyphs 6 or 6.5 px high (below what the MRZ model resolves on most prints), JPEG 75;
 * - `pair`: two tuning pictures side by side on white, each with 8 px glyphs, JPEG 75 (the
 *   two-cards-in-one-picture case); either MRZ counts as right (`mrz_alternatives`).
 * `--variants cross,bar` (document engine 2.6 development, overlays drawn over the MRZ; placed on
 *   the band the search finds upright, pictures whose band is turned are skipped):
 * - `cross`: a camera-style focus crosshair and frame: one horizontal line through a text line of
 *   the MRZ and one vertical line through its middle, 2–3 px at the source scale, dark grey, white
 *   or bright green by picture, JPEG 85;
 * - `bar`: a translucent bright green bar (alpha 0.45) over the MRZ lines and corner brackets
 *   around them (the vendor-illustration case), JPEG 85.
 * Writes the images and a `ground_truth.jsonl` in the bench's format. Not a substitute for real
 * held-out data: it only says whether a change helps on what the degradations model.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { crosshair, glyphHeight, highlightBar, tint } from './degrade.js';
import { locateMrzBands } from '../engine/document/mrz/locate.js';
import { decodedInput, isHeldOut, type RealTruth } from './documents-real.js';

const args = process.argv.slice(2);
const vi = args.indexOf('--variants');
const kinds = vi >= 0 ? args.splice(vi, 2)[1]!.split(',') : ['persp', 'small', 'blur', 'shade'];
const [src, dest] = args;
if (!src || !dest) throw new Error('usage: augment-real.ts <documents-real dir> <out dir> [--variants persp,small,blur,shade,tiny,tint,micro,pair,cross,bar]');
mkdirSync(dest, { recursive: true });
const truths = readFileSync(path.join(src, 'ground_truth.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RealTruth);
// One copy per picture: the EXIF-rotated and low-resolution duplicates add nothing here.
const seen = new Set<string>();
const unique = truths.filter((t) => !isHeldOut(t)).filter((t) => {
  const key = t.mrz_lines.join('');
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
});

/** Inverse-maps every output pixel through the homography taking the unit square to `quad`. */
function warpPerspective(rgb: Buffer, w: number, h: number, quad: [number, number][]): Buffer {
  // Output pixel (u, v) in [0,1]² ↦ bilinear interpolation of the quad's corners (a good
  // approximation of a keystone homography for small distortions, and exact at the corners).
  const out = Buffer.alloc(w * h * 3, 255);
  const [p00, p10, p11, p01] = quad;
  for (let y = 0; y < h; y++) {
    const v = y / (h - 1);
    for (let x = 0; x < w; x++) {
      const u = x / (w - 1);
      const sx = (1 - u) * (1 - v) * p00[0] + u * (1 - v) * p10[0] + u * v * p11[0] + (1 - u) * v * p01[0];
      const sy = (1 - u) * (1 - v) * p00[1] + u * (1 - v) * p10[1] + u * v * p11[1] + (1 - u) * v * p01[1];
      if (sx < 0 || sy < 0 || sx >= w - 1 || sy >= h - 1) continue;
      const x0 = Math.floor(sx), y0 = Math.floor(sy), fx = sx - x0, fy = sy - y0;
      for (let c = 0; c < 3; c++) {
        const a = rgb[(y0 * w + x0) * 3 + c]!, b = rgb[(y0 * w + x0 + 1) * 3 + c]!;
        const d = rgb[((y0 + 1) * w + x0) * 3 + c]!, e = rgb[((y0 + 1) * w + x0 + 1) * 3 + c]!;
        out[(y * w + x) * 3 + c] = Math.round((a * (1 - fx) + b * fx) * (1 - fy) + (d * (1 - fx) + e * fx) * fy);
      }
    }
  }
  return out;
}

const rows: string[] = [];
let index = 0;
/** `pair`: each picture at 8 px glyphs, composed two by two after the loop. */
const eights: { t: RealTruth; base: string; data: Buffer; width: number; height: number }[] = [];
for (const t of unique) {
  const bytes = readFileSync(path.join(src, t.file));
  // Three channels whatever the source (grey PNGs decode to one).
  const { data, info } = await decodedInput(bytes).rotate().removeAlpha().toColourspace('srgb').joinChannel([]).raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`${t.file}: ${info.channels} channels`);
  const { width: w, height: h } = info;
  const base = t.file.replace(/\.[^.]+$/, '');
  const variants: [string, Buffer][] = [];
  const k0 = index++;
  if (kinds.some((k) => ['tiny', 'tint', 'micro', 'pair'].includes(k))) {
    const gh = await glyphHeight(data, w, h);
    if (gh === null) { console.error(`${t.file}: no band found, no tiny/tint copy`); continue; }
    const resized = async (target: number) => {
      const f = Math.min(1, target / gh);
      return sharp(data, { raw: { width: w, height: h, channels: 3 } }).resize(Math.max(8, Math.round(w * f)), Math.max(8, Math.round(h * f)), { kernel: 'lanczos3' }).raw().toBuffer({ resolveWithObject: true });
    };
    if (kinds.includes('tiny')) {
      const r = await resized(7 + (k0 % 3));
      variants.push(['tiny', await sharp(r.data, { raw: { width: r.info.width, height: r.info.height, channels: 3 } }).jpeg({ quality: 75 }).toBuffer()]);
    }
    if (kinds.includes('micro')) {
      const r = await resized(6 + 0.5 * (k0 % 2));
      variants.push(['micro', await sharp(r.data, { raw: { width: r.info.width, height: r.info.height, channels: 3 } }).jpeg({ quality: 75 }).toBuffer()]);
    }
    if (kinds.includes('pair')) {
      const r = await resized(8);
      eights.push({ t, base, data: r.data, width: r.info.width, height: r.info.height });
    }
    if (kinds.includes('tint')) {
      const r = await resized(12);
      variants.push(['tint', await sharp(tint(r.data, r.info.width, r.info.height, k0), { raw: { width: r.info.width, height: r.info.height, channels: 3 } }).jpeg({ quality: 70 }).toBuffer()]);
    }
  }
  if (kinds.includes('cross') || kinds.includes('bar')) {
    const [band] = await locateMrzBands({ data, width: w, height: h, channels: 3 }, { workSide: 1000, maxBands: 1 });
    if (!band || Math.abs(band.angle) > 3) console.error(`${t.file}: no upright band, no cross/bar copy`);
    else {
      if (kinds.includes('cross')) variants.push(['cross', await sharp(crosshair(data, w, h, band, k0), { raw: { width: w, height: h, channels: 3 } }).jpeg({ quality: 85 }).toBuffer()]);
      if (kinds.includes('bar')) variants.push(['bar', await sharp(highlightBar(data, w, h, band), { raw: { width: w, height: h, channels: 3 } }).jpeg({ quality: 85 }).toBuffer()]);
    }
  }
  if (kinds.includes('persp')) {
  // Keystone: the right side 18 % shorter, then an 8° roll.
  const k = 0.09 * h;
  const persp = warpPerspective(data, w, h, [[0, 0], [w - 1, -k], [w - 1, h - 1 + k], [0, h - 1]]);
  variants.push(['persp', await sharp(persp, { raw: { width: w, height: h, channels: 3 } }).rotate(8, { background: '#ffffff' }).jpeg({ quality: 85 }).toBuffer()]);
  }
  // MRZ characters about 8–10 px: the document is ~60 characters wide across the frame at most.
  const scale = Math.min(1, 560 / Math.max(w, h));
  if (kinds.includes('small')) variants.push(['small', await sharp(data, { raw: { width: w, height: h, channels: 3 } }).resize(Math.round(w * scale), Math.round(h * scale)).jpeg({ quality: 60 }).toBuffer()]);
  if (kinds.includes('blur')) variants.push(['blur', await sharp(data, { raw: { width: w, height: h, channels: 3 } }).blur(1.6).jpeg({ quality: 35 }).toBuffer()]);
  if (kinds.includes('shade')) {
  const shaded = Buffer.alloc(data.length);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const g = 0.35 + 0.65 * (x / (w - 1));
    for (let c = 0; c < 3; c++) { const i = (y * w + x) * 3 + c; shaded[i] = Math.round((128 + (data[i]! - 128) * 0.5) * g); }
  }
  variants.push(['shade', await sharp(shaded, { raw: { width: w, height: h, channels: 3 } }).jpeg({ quality: 80 }).toBuffer()]);
  }
  for (const [name, out] of variants) {
    const file = `${base}__${name}.jpg`;
    writeFileSync(path.join(dest, file), out);
    rows.push(JSON.stringify({ file, mrz_lines: t.mrz_lines, format: t.format, capture: name, checks_valid: t.checks_valid, source: t.file, sha256: createHash('sha256').update(out).digest('hex') }));
  }
}
// Two pictures side by side (each with its neighbour in the list; the last with the first).
for (let i = 0; i < eights.length && eights.length > 1; i++) {
  const a = eights[i]!, b = eights[(i + 1) % eights.length]!;
  const gap = 24, width = a.width + b.width + 3 * gap, height = Math.max(a.height, b.height) + 2 * gap;
  const img = (x: typeof a) => ({ input: x.data, raw: { width: x.width, height: x.height, channels: 3 as const } });
  const out = await sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .composite([{ ...img(a), left: gap, top: gap }, { ...img(b), left: 2 * gap + a.width, top: gap }]).jpeg({ quality: 75 }).toBuffer();
  const file = `${a.base}__pair.jpg`;
  writeFileSync(path.join(dest, file), out);
  rows.push(JSON.stringify({ file, mrz_lines: a.t.mrz_lines, mrz_alternatives: [b.t.mrz_lines], format: a.t.format, capture: 'pair', checks_valid: a.t.checks_valid, source: `${a.t.file} + ${b.t.file}`, sha256: createHash('sha256').update(out).digest('hex') }));
}
writeFileSync(path.join(dest, 'ground_truth.jsonl'), rows.join('\n') + '\n');
console.log(`${rows.length} degraded copies of ${unique.length} tuning pictures in ${dest}`);
