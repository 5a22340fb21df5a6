import sharp from 'sharp';
import { binaryRowFilter, runFilter } from './morphology.js';

/**
 * Classical MRZ localisation on a whole photo or scan: no template, no document outline needed.
 *
 * 1. Grey working copy (longest side `workSide`), **blackhat** (grey closing minus the image) with
 *    a rectangle a little larger than a stroke: dark print on a light ground lights up, flat
 *    areas, photos and backgrounds go dark.
 * 2. **Text direction** from the thresholded blackhat: the angle in [0°, 180°) whose projection
 *    profile is peakiest (text lines give the sharpest rows). The image is turned so that lines
 *    run horizontally; whether it is then upside down is left to the reader (check digits decide).
 * 3. **Bands**: a horizontal closing joins characters into line blobs; long, thin blobs that stack
 *    with similar widths and heights (2 or 3 of them) are MRZ candidates, widest first.
 *
 * Measured against a learned detector (PaddleOCR det) in `bench/mrz-detectors.ts`; see the README.
 */

export interface Gray { data: Uint8Array; width: number; height: number }

/** A candidate MRZ band in the coordinates of the image turned by `angle` degrees (clockwise, sharp's convention). */
export interface MrzBand {
  angle: number;
  /** Box in the turned full-resolution image. */
  left: number; top: number; width: number; height: number;
  lines: number;
  /** Mean line height in full-resolution pixels. */
  lineHeight: number;
  score: number;
  /** 2.7: paired only through lines grown across their filler gaps (`extendFirst`): read after the others. */
  fallback?: true;
  /** 3.12 (`splitMerged`): a merged blob ranked as the stack its rows show; no two blobs stacked. */
  split?: true;
  /** 3.9: found on each pixel's brightest channel (`scan.inkSearch`): cut from it, not from luma. */
  ink?: 'value';
}

/** One band found twice (by two searches): the same turn, its corner within 20 px. */
export function sameBand(a: MrzBand, b: MrzBand): boolean {
  return a.angle === b.angle && Math.abs(a.left - b.left) < 20 && Math.abs(a.top - b.top) < 20;
}

/**
 * document engine 3.21 (`scan.fineSearch`), capture-advice 1.4: the working side of the second band
 * search, `factor` times the first's, or null where the frame is no larger than that: a frame the
 * first copy did not shrink that far lost no detail a larger copy would find.
 */
export function fineWorkSide(img: { width: number; height: number }, workSide: number, factor: number): number | null {
  return Math.max(img.width, img.height) > workSide * factor ? Math.round(workSide * factor) : null;
}

/** `binary`: `src` holds only 0 and 1 (a mask), which rows can filter by runs (morphology.ts). */
function morph(src: Uint8Array, w: number, h: number, kw: number, kh: number, max: boolean, binary = false): Uint8Array {
  let out = src;
  if (kw > 1) out = binary ? binaryRowFilter(out, w, h, kw, max) : runFilter(out, w, h, kw, true, max);
  if (kh > 1) out = runFilter(out, w, h, kh, false, max);
  return out;
}

export function blackhat(g: Gray, kw: number, kh: number): Uint8Array {
  const closed = morph(morph(g.data, g.width, g.height, kw, kh, true), g.width, g.height, kw, kh, false);
  const out = new Uint8Array(g.data.length);
  for (let i = 0; i < out.length; i++) out[i] = closed[i]! - g.data[i]!;
  return out;
}

function otsu(values: Uint8Array): number {
  const hist = new Float64Array(256);
  for (const v of values) hist[v]!++;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * hist[i]!;
  let sumB = 0, wB = 0, best = 0, t = 0;
  for (let i = 0; i < 256; i++) {
    wB += hist[i]!;
    if (!wB) continue;
    const wF = values.length - wB;
    if (!wF) break;
    sumB += i * hist[i]!;
    const between = wB * wF * (sumB / wB - (sum - sumB) / wF) ** 2;
    if (between > best) { best = between; t = i; }
  }
  return t;
}

/** Text mask: blackhat above Otsu's level (and never below a floor, so flat images stay empty). */
export function textMask(g: Gray, faint = 1): Uint8Array {
  const bh = blackhat(g, 15, 9);
  // `faint` < 1 (2.5's faint search): a lower level, for pale MRZ print in a frame whose Otsu level
  // bold dark print elsewhere sets (thin strokes fall under it and the 2×2 opening erases them).
  const t = Math.max(25, otsu(bh) * faint);
  const mask = new Uint8Array(bh.length);
  for (let i = 0; i < bh.length; i++) mask[i] = bh[i]! > t ? 1 : 0;
  return mask;
}

/**
 * Dominant text-line angle in degrees, [0, 180): the rotation (counter-clockwise, image y down)
 * that lines of text follow. Projection-profile energy over a subsample of mask pixels, coarse then fine.
 */
export function textAngle(mask: Uint8Array, w: number, h: number): number {
  return textAngles(mask, w, h).first;
}

/**
 * `textAngle`, and (3.12) the angle of the next strongest text direction: the peak of the coarse
 * profile at least `SECOND_APART` degrees from the first, refined as the first is. A document photographed on
 * a busy desk can have its text outweighed by a ruler's ticks or a cable's run; its lines then make
 * the second peak. Absent when the profile has no other peak or the mask is too sparse.
 */
export function textAngles(mask: Uint8Array, w: number, h: number): { first: number; second?: number } {
  const step = Math.max(1, Math.floor(Math.sqrt((w * h) / 400_000)));
  let count = 0;
  for (let y = 0; y < h; y += step) for (let x = 0; x < w; x += step) if (mask[y * w + x]) count++;
  if (count < 50) return { first: 0 };
  // Typed coordinates. Only the bins a projection can reach are summed and cleared (the points'
  // box, a bin of margin each side): zeros add nothing, and the counts are integers, so every
  // angle's energy is the same exact double as a sum over the whole array, in any order.
  const xs = new Int32Array(count), ys = new Int32Array(count);
  let minX = w, maxX = 0, minY = h, maxY = 0;
  for (let y = 0, n = 0; y < h; y += step) {
    for (let x = 0; x < w; x += step) {
      if (!mask[y * w + x]) continue;
      xs[n] = x; ys[n] = y; n++;
      if (x < minX) minX = x; if (x > maxX) maxX = x; if (y < minY) minY = y; if (y > maxY) maxY = y;
    }
  }
  const diag = Math.ceil(Math.hypot(w, h));
  const bins = new Float64Array(2 * diag + 2);
  const energy = (deg: number) => {
    const a = (deg * Math.PI) / 180, s = Math.sin(a), c = Math.cos(a);
    for (let i = 0; i < count; i++) bins[Math.round(ys[i]! * c - xs[i]! * s) + diag]! += 1;
    const t00 = minY * c - minX * s, t01 = minY * c - maxX * s, t10 = maxY * c - minX * s, t11 = maxY * c - maxX * s;
    const from = Math.max(0, Math.round(Math.min(t00, t01, t10, t11)) + diag - 1);
    const to = Math.min(bins.length - 1, Math.round(Math.max(t00, t01, t10, t11)) + diag + 1);
    let e = 0;
    for (let i = from; i <= to; i++) { e += bins[i]! * bins[i]!; bins[i] = 0; }
    return e;
  };
  let best = 0, bestE = -1;
  const profile: number[] = [];
  for (let d = 0; d < 180; d += 2) { const e = energy(d); profile.push(e); if (e > bestE) { bestE = e; best = d; } }
  const coarse = best;
  // A refinement angle the coarse profile already holds (an even degree in 0–178) takes its value
  // from there: the same angle, so the same double.
  const refined = (d: number) => (Number.isInteger(d) && d % 2 === 0 && d >= 0 && d < 180 ? profile[d / 2]! : energy(d));
  for (let d = coarse - 2; d <= coarse + 2; d += 0.25) { const e = refined(d); if (e > bestE) { bestE = e; best = d; } }
  const first = ((best % 180) + 180) % 180;
  // The second direction: a local maximum of the coarse profile (angles wrap at 180°) away from the first.
  const apart = (a: number, b: number) => Math.min(Math.abs(a - b) % 180, 180 - (Math.abs(a - b) % 180));
  let peak = -1, peakE = -1;
  for (let k = 0; k < profile.length; k++) {
    const e = profile[k]!, d = 2 * k;
    if (apart(d, coarse) < SECOND_APART || e < profile[(k + profile.length - 1) % profile.length]! || e < profile[(k + 1) % profile.length]!) continue;
    if (e > peakE) { peakE = e; peak = d; }
  }
  if (peak < 0) return { first };
  let second = peak, secondE = peakE;
  for (let d = peak - 2; d <= peak + 2; d += 0.25) { const e = refined(d); if (e > secondE) { secondE = e; second = d; } }
  return { first, second: ((second % 180) + 180) % 180 };
}

/** 3.12: how far (degrees) the second text direction must lie from the first: farther than the first's own refinement (±2°) and its tilt passes reach. */
const SECOND_APART = 10;

export interface Blob { x0: number; y0: number; x1: number; y1: number; px: number }

/**
 * The 4-connected components of a 0/1 mask, in the raster order of their first pixel, and (with
 * `labels`, which must be all zero) each pixel's 1-based component number. Labelled by runs: each
 * row's runs of ink are joined (union-find) to the runs they touch in the row above, and each
 * component is numbered when its first run is met in raster order, which is where a flood fill from
 * the first unlabelled pixel would number it; the blobs and labels are the flood fill's, pinned by
 * locate-components.test.ts. A run is a few integers where the flood fill pushed every pixel
 * through a stack: the line search's masks are long runs (lines joined by a closing).
 */
export function components(mask: Uint8Array, w: number, h: number, labels?: Int32Array): Blob[] {
  // Runs in raster order: row, first and last column; `parent` is the union-find forest over runs.
  let cap = 1024;
  let ry = new Int32Array(cap), rx0 = new Int32Array(cap), rx1 = new Int32Array(cap), parent = new Int32Array(cap);
  let n = 0;
  const find = (i: number): number => {
    let r = i;
    while (parent[r] !== r) r = parent[r]!;
    while (parent[i] !== r) { const next = parent[i]!; parent[i] = r; i = next; }
    return r;
  };
  let prevStart = 0, prevEnd = 0; // the runs of the row above: [prevStart, prevEnd)
  for (let y = 0; y < h; y++) {
    const row = y * w, start = n;
    let p = prevStart;
    for (let x = 0; x < w;) {
      if (!mask[row + x]) { x++; continue; }
      const x0 = x;
      while (x < w && mask[row + x]) x++;
      const x1 = x - 1;
      if (n === cap) {
        cap *= 2;
        const grow = (a: Int32Array) => { const b = new Int32Array(cap); b.set(a); return b; };
        ry = grow(ry); rx0 = grow(rx0); rx1 = grow(rx1); parent = grow(parent);
      }
      ry[n] = y; rx0[n] = x0; rx1[n] = x1; parent[n] = n;
      // Runs above that share a column with this one (4-connectivity: overlap, not diagonal touch).
      while (p < prevEnd && rx1[p]! < x0) p++;
      for (let q = p; q < prevEnd && rx0[q]! <= x1; q++) {
        const a = find(q), b = find(n);
        if (a !== b) { if (a < b) parent[b] = a; else parent[a] = b; }
      }
      n++;
    }
    prevStart = start; prevEnd = n;
  }
  // Numbered in raster order of each component's first run; the root is the component's least run
  // index (unions keep the smaller index), so a component is met first at its root.
  const id = new Int32Array(n);
  const out: Blob[] = [];
  for (let i = 0; i < n; i++) {
    const r = find(i);
    let k: number;
    if (r === i) {
      k = out.length;
      id[i] = k;
      out.push({ x0: w, y0: h, x1: 0, y1: 0, px: 0 });
    } else k = id[r]!;
    const b = out[k]!, y = ry[i]!, x0 = rx0[i]!, x1 = rx1[i]!;
    b.px += x1 - x0 + 1;
    if (x0 < b.x0) b.x0 = x0;
    if (x1 > b.x1) b.x1 = x1;
    if (y < b.y0) b.y0 = y;
    if (y > b.y1) b.y1 = y;
    if (labels) labels.fill(k + 1, y * w + x0, y * w + x1 + 1);
  }
  return out;
}

/** Horizontal line blobs: characters joined by a horizontal closing, then long thin runs kept. */
export function lineBlobs(mask: Uint8Array, w: number, h: number, join: number): Blob[] {
  return lineBlobsAndTilts(mask, w, h, join, false).blobs;
}

/**
 * The mask without isolated specks (a 2×2 opening), so noise does not bridge lines: the first step
 * of every join's line search, computed once per mask (`classicalLines`) rather than once per join.
 */
export function withoutSpecks(mask: Uint8Array, w: number, h: number): Uint8Array {
  return morph(morph(mask, w, h, 2, 2, false, true), w, h, 2, 2, true, true);
}

/**
 * 3.30 (`thin`): the mask without its small components (under `THIN_SPECK_PX` pixels), every thin
 * stroke kept. The 2×2 opening of `withoutSpecks` also erases strokes one pixel wide, and print whose
 * strokes are that thin at the working size (a light typeface, a photo that shrinks to it) loses its
 * characters before lines form. Only a later search uses it: on the tuning side, using it for every
 * search lost three bands the opening finds (thin lines it keeps bridge or crowd them).
 */
export function withoutSmallComponents(mask: Uint8Array, w: number, h: number): Uint8Array {
  const labels = new Int32Array(w * h);
  const parts = components(mask, w, h, labels);
  const out = new Uint8Array(w * h);
  for (let i = 0; i < out.length; i++) {
    const l = labels[i]!;
    if (l && parts[l - 1]!.px >= THIN_SPECK_PX) out[i] = 1;
  }
  return out;
}
/** Components smaller than this (working-size pixels) are specks to `withoutSmallComponents`: a chevron or a `1` at 10 px is larger. */
const THIN_SPECK_PX = 8;

/** A long, straight, thin blob that runs at a small angle to the rows (2.2, `tilt`). */
export interface TiltedLine { deg: number; x0: number; x1: number; cy: number; thickness: number }

/**
 * The line blobs, and (`tilt`) the long straight blobs the row-aligned filter rejects because they
 * run a few degrees off the rows: under perspective or with a second document plane in the frame
 * (a passport's other page, a card on a sheet) the MRZ's lines do not follow the frame's dominant
 * text angle, and their bounding boxes are too tall and too empty to pass as lines. Each is
 * measured by its column profile: the centre line's slope (least squares over the columns'
 * ink midpoints) and its thickness (median column extent).
 */
export function lineBlobsAndTilts(mask: Uint8Array, w: number, h: number, join: number, tilt: boolean, opened = withoutSpecks(mask, w, h)): { blobs: Blob[]; tilted: TiltedLine[] } {
  const closed = morph(morph(opened, w, h, join, 1, true, true), w, h, join, 1, false, true);
  const labels = tilt ? new Int32Array(w * h) : undefined;
  const all = components(closed, w, h, labels);
  const blobs: Blob[] = [];
  const tilted: TiltedLine[] = [];
  all.forEach((b, i) => {
    const bw = b.x1 - b.x0 + 1, bh = b.y1 - b.y0 + 1;
    if (bh >= 4 && bw >= 8 * bh && bw >= w * 0.12 && b.px >= 0.35 * bw * bh) { blobs.push(b); return; }
    if (!labels || bw < w * 0.12 || bh < 4) return;
    const t = tiltOf(labels, w, b, i + 1);
    if (t) tilted.push(t);
  });
  return { blobs, tilted };
}

function tiltOf(labels: Int32Array, w: number, b: Blob, id: number): TiltedLine | null {
  const bw = b.x1 - b.x0 + 1;
  const mids: number[] = [], xs: number[] = [], ext: number[] = [];
  for (let x = b.x0; x <= b.x1; x++) {
    let top = -1, bot = -1;
    for (let y = b.y0; y <= b.y1; y++) if (labels[y * w + x] === id) { if (top < 0) top = y; bot = y; }
    if (top < 0) continue;
    xs.push(x); mids.push((top + bot) / 2); ext.push(bot - top + 1);
  }
  if (xs.length < 0.8 * bw) return null;
  const thickness = [...ext].sort((p, q) => p - q)[Math.floor(ext.length / 2)]!;
  if (thickness < 4 || bw < 10 * thickness || b.px < 0.5 * xs.length * thickness) return null;
  const n = xs.length, mx = xs.reduce((a, v) => a + v, 0) / n, my = mids.reduce((a, v) => a + v, 0) / n;
  let sxy = 0, sxx = 0;
  for (let k = 0; k < n; k++) { sxy += (xs[k]! - mx) * (mids[k]! - my); sxx += (xs[k]! - mx) ** 2; }
  const slope = sxx ? sxy / sxx : 0;
  // Straight: the midpoints stay within a quarter of the thickness of the fitted line on average.
  let dev = 0;
  for (let k = 0; k < n; k++) dev += Math.abs(mids[k]! - (my + slope * (xs[k]! - mx)));
  if (dev / n > 0.25 * thickness) return null;
  const deg = (Math.atan(slope) * 180) / Math.PI;
  if (Math.abs(deg) < 0.75 || Math.abs(deg) > 15) return null;
  return { deg, x0: b.x0, x1: b.x1, cy: my, thickness };
}

/**
 * The angle (degrees, relative to the pass) of the most MRZ-like stack among tilted lines, if
 * any: two lines of similar tilt (within 2°) and length (within 30 %), one above the other at one
 * to three and a half line thicknesses, that start or end at the same place (MRZ lines are all of
 * one length; a filler run may split one at the start or the end), of similar thickness. Of several, the one whose
 * shorter line is longest: the MRZ runs the width of its document. A single tilted line is not
 * enough, and neither is the tilted print of a photo or a page of prose.
 */
export function tiltedStacks(lines: TiltedLine[]): { deg: number; len: number }[] {
  let best: { deg: number; len: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    for (let j = i + 1; j < lines.length; j++) {
      const a = lines[i]!, b = lines[j]!;
      const la = a.x1 - a.x0, lb = b.x1 - b.x0, len = Math.min(la, lb);
      if (Math.abs(a.deg - b.deg) > 2 || len < 0.7 * Math.max(la, lb)) continue;
      if (Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) < 0.6 * len) continue;
      if (Math.abs(a.x0 - b.x0) > 0.08 * len && Math.abs(a.x1 - b.x1) > 0.08 * len) continue;
      // Vertical distance of the centre lines at the middle of the overlap.
      const xm = (Math.max(a.x0, b.x0) + Math.min(a.x1, b.x1)) / 2;
      const ya = a.cy + Math.tan((a.deg * Math.PI) / 180) * (xm - (a.x0 + a.x1) / 2);
      const yb = b.cy + Math.tan((b.deg * Math.PI) / 180) * (xm - (b.x0 + b.x1) / 2);
      const th = Math.max(a.thickness, b.thickness);
      if (th > 1.6 * Math.min(a.thickness, b.thickness)) continue;
      if (Math.abs(ya - yb) < 1.2 * th || Math.abs(ya - yb) > 3.5 * th) continue;
      if (!best || len > best.len) best = { deg: (a.deg + b.deg) / 2, len };
    }
  }
  return best ? [best] : [];
}

/**
 * An MRZ line is 30, 36 or 44 characters at a pitch of about 0.75 of the blob's height: an aspect
 * of roughly 18–45. Stacks of 2–3 such lines rank first, single merged blobs after.
 */
function bandScore(aspect: number, lines: number, widthShare: number): number {
  const fit = aspect < 18 ? aspect / 18 : aspect > 48 ? 48 / aspect : 1;
  // The MRZ spans its document: of two stacks, the wider one in the frame is likelier.
  return fit * 10 + (lines >= 2 ? 10 + lines : 0) + 8 * widthShare;
}

/** Stacks of 2–3 line blobs with similar extent: the MRZ's shape. */
export function groupBands(blobs: Blob[], imageWidth: number, spans?: ReadonlyMap<Blob, { x0: number; x1: number }>): { x0: number; y0: number; x1: number; y1: number; lines: number; lineHeight: number; score: number }[] {
  const sorted = [...blobs].sort((a, b) => a.y0 - b.y0);
  const out: { x0: number; y0: number; x1: number; y1: number; lines: number; lineHeight: number; score: number }[] = [];
  // 2.7: lines are compared over `spans` (each line grown through its filler gaps) when given;
  // the bands themselves are still built from the blobs, so bands formed without it are unchanged.
  const span = (b: Blob) => spans?.get(b) ?? b;
  for (let i = 0; i < sorted.length; i++) {
    const group = [sorted[i]!];
    for (let j = i + 1; j < sorted.length && group.length < 3; j++) {
      const a = group[group.length - 1]!, b = sorted[j]!;
      const sa = span(a), sb = span(b);
      const ha = a.y1 - a.y0 + 1, hb = b.y1 - b.y0 + 1, wa = sa.x1 - sa.x0 + 1, wb = sb.x1 - sb.x0 + 1;
      const gap = b.y0 - a.y1;
      if (gap > 2.2 * Math.max(ha, hb)) break;
      const overlap = Math.min(sa.x1, sb.x1) - Math.max(sa.x0, sb.x0);
      if (gap < -0.3 * Math.min(ha, hb) || overlap < 0.7 * Math.min(wa, wb) || Math.max(ha, hb) > 2 * Math.min(ha, hb) || Math.min(wa, wb) < 0.75 * Math.max(wa, wb)) continue;
      group.push(b);
      const x0 = Math.min(...group.map((g) => g.x0)), x1 = Math.max(...group.map((g) => g.x1));
      const y0 = group[0]!.y0, y1 = b.y1;
      const lh = group.reduce((s, g) => s + g.y1 - g.y0 + 1, 0) / group.length;
      // Wider bands with 2–3 even lines first; the width term favours the full MRZ over a caption pair.
      out.push({ x0, y0, x1, y1, lines: group.length, lineHeight: lh, score: bandScore((x1 - x0) / lh, group.length, (x1 - x0) / imageWidth) });
    }
    // A single blob as tall as two lines: lines merged by the closing (tight line spacing).
    const s = sorted[i]!, sw = s.x1 - s.x0 + 1, sh = s.y1 - s.y0 + 1;
    if (sw < 18 * sh) out.push({ x0: s.x0, y0: s.y0, x1: s.x1, y1: s.y1, lines: 0, lineHeight: sh / 2, score: bandScore((2 * sw) / sh, 0, sw / imageWidth) });
  }
  return out.sort((a, b) => b.score - a.score);
}

/**
 * Candidate MRZ bands of an upright-decoded image (raw RGB or grey), best first. `angle` is the
 * clockwise rotation (sharp `rotate`) that makes the band's lines horizontal; a band may still be
 * upside down.
 */
/**
 * Finds text-line blobs in a turned grey image (lines horizontal). The default is the classical
 * blackhat mask; `bench/mrz-detectors.ts` plugs the PaddleOCR detector in here to compare.
 */
/** `knownMask`: `textMask(g)` at level 1, when the caller already has it (the angle search's). */
export type LineFinder = (g: Gray, tilt?: boolean, adaptiveJoin?: boolean, faint?: number, stripLines?: boolean, knownMask?: Uint8Array, thin?: boolean) => Promise<{ blobs: Blob[][]; mask: Uint8Array; tilts?: number[] }>;

/**
 * Median height (px) of the character-sized ink components of a text mask: blobs 4 px or taller,
 * no wider than twice their height and no taller than half the frame (an MRZ-only crop holds two or
 * three lines, so its characters are a third to a quarter of its height). 0 when there are few.
 */
export function medianGlyphHeight(mask: Uint8Array, w: number, h: number): number {
  const hs = components(mask, w, h).filter((b) => {
    const bw = b.x1 - b.x0 + 1, bh = b.y1 - b.y0 + 1;
    return bh >= 4 && bh <= h / 2 && bw <= 2 * bh;
  }).map((b) => b.y1 - b.y0 + 1).sort((a, b) => a - b);
  return hs.length >= 10 ? hs[Math.floor(hs.length / 2)]! : 0;
}

/**
 * 2.6: a thin straight line drawn across the MRZ (a camera app's focus crosshair or frame, an
 * illustration's outline) is in the text mask too. A vertical one joins the MRZ lines into one
 * blob taller than a text line, and a horizontal one merges a text line with what it touches, so
 * the MRZ's stack of lines is not formed. Characters are separate marks under two character heights
 * tall or wide: mask runs longer than that along a column (3 character heights) or a row (5) and at
 * most `LINE_PX` thick across are taken out. The mask is returned as it is when no such run exists.
 */
export function stripMaskLines(mask: Uint8Array, w: number, h: number): Uint8Array {
  const gh = medianGlyphHeight(mask, w, h) || 8;
  let out: Uint8Array | null = null;
  const clear = (i: number) => { out ??= Uint8Array.from(mask); out[i] = 0; };
  for (const vertical of [true, false]) {
    const minRun = Math.max(vertical ? 24 : 40, Math.round((vertical ? 3 : 5) * gh));
    const [n, m] = vertical ? [w, h] : [h, w];
    const at = (i: number, j: number) => (vertical ? j * w + i : i * w + j);
    const mark = new Uint8Array(w * h);
    let any = false;
    // Long runs along the line's direction...
    for (let i = 0; i < n; i++) {
      let j = 0;
      while (j < m) {
        if (!mask[at(i, j)]) { j++; continue; }
        const j0 = j;
        while (j < m && mask[at(i, j)]) j++;
        if (j - j0 >= minRun) { any = true; for (let k = j0; k < j; k++) mark[at(i, k)] = 1; }
      }
    }
    if (!any) continue;
    // ...that are thin across it.
    for (let j = 0; j < m; j++) {
      let i = 0;
      while (i < n) {
        if (!mark[at(i, j)]) { i++; continue; }
        const i0 = i;
        while (i < n && mark[at(i, j)]) i++;
        if (i - i0 <= LINE_PX) for (let k = i0; k < i; k++) clear(at(k, j));
      }
    }
  }
  return out ?? mask;
}

/** 2.6: the thickest line (working-size pixels) `stripMaskLines` takes out. */
const LINE_PX = 4;

export const classicalLines: LineFinder = async (g, tilt = false, adaptiveJoin = false, faint = 1, stripLines = false, knownMask = undefined, thin = false) => {
  const text = knownMask && faint === 1 ? knownMask : textMask(g, faint);
  const mask = stripLines ? stripMaskLines(text, g.width, g.height) : text;
  // Characters are joined across their gaps; the gap scales with the text, so two joins.
  const joins = [9, 17];
  // 2.3 (`adaptiveJoin`): large print (an MRZ-only crop, a close-up) has gaps between characters
  // wider than 17 px at the working size, so its lines never form. A third join scaled to the
  // frame's median character height (OCR-B's gap is about half the character height; `1` and `<`
  // leave wider ones) joins them; frames of ordinary text size get no extra pass.
  if (adaptiveJoin) {
    const gh = medianGlyphHeight(mask, g.width, g.height);
    const join = Math.round(0.9 * gh);
    if (join > 17) joins.push(join);
  }
  const opened = thin ? withoutSmallComponents(mask, g.width, g.height) : withoutSpecks(mask, g.width, g.height);
  const found = joins.map((join) => lineBlobsAndTilts(mask, g.width, g.height, join, tilt, opened));
  // Per join: pooled, pieces of one line found at both joins would pair with each other.
  const stacks = tilt ? found.map((f) => tiltedStacks(f.tilted)[0]).filter((d): d is { deg: number; len: number } => !!d) : [];
  const tilts = tilt ? stacks.sort((a, b) => b.len - a.len).slice(0, 1).map((d) => d.deg) : undefined;
  return { mask, blobs: found.map((f) => f.blobs), tilts };
};

export interface LocateOptions {
  workSide: number;
  maxBands: number;
  angles?: number[];
  lines?: LineFinder;
  /**
   * 2.2: where a pass finds stacks of long parallel lines a few degrees off its rows
   * (`tiltedStacks`), search once more at that angle (at most two extra passes), so that an MRZ
   * under perspective or on a page at another angle than the frame's dominant text is found.
   */
  tilt?: boolean;
  /** Angles an earlier call searched: a tilt pass does not repeat them. */
  skipAngles?: number[];
  /** 2.3: a third horizontal join scaled to the frame's character height when the print is large (`classicalLines`). */
  adaptiveJoin?: boolean;
  /** 2.5: the text mask's level as a fraction of Otsu's (`textMask`); absent: 1. */
  faint?: number;
  /** 2.6: long thin straight lines are taken out of the text mask before lines are formed (`stripMaskLines`). */
  stripLines?: boolean;
  /** 3.30: specks are small components, not what a 2×2 opening erases, so one-pixel strokes stay (`withoutSmallComponents`). */
  thin?: boolean;
  /**
   * 2.7: lines are also paired as if each were grown sideways through its filler gaps (`extend`);
   * bands only that pairing forms come after every strictly paired band, at most one of them.
   */
  extendFirst?: boolean;
  /**
   * 3.7: filled with the dominant text's angle turned a quarter (`across`), when the angles searched
   * came from the text, so that the scan can search across the text later (`scan.acrossText`).
   */
  report?: { across?: number; second?: number };
  /**
   * 3.12: a merged band (a single blob as tall as two lines, `lines` 0) whose mask rows split into two
   * or three even lines (`stackedLines`) is ranked as the stack it is. Print or a security pattern
   * between an MRZ's lines can bridge them into one blob, which then ranked below stacks of captions.
   */
  splitMerged?: boolean;
  /** 3.12: a band formed at more than one join (the same box once grown) ranks by its best score, not its first. */
  bestJoin?: boolean;
}

/**
 * 3.12 (`splitMerged`): how many text lines a merged blob holds, read from its mask's row profile.
 * A row belongs to a line when its ink is above the midpoint of the emptiest and the fullest row
 * (a security pattern puts ink in every row, so a share of the fullest row alone is not enough);
 * two or three such runs of rows, each at least `STACK_FILL` of its share of the blob's height, the
 * shortest at least `STACK_EVEN` of the tallest, `STACK_GAP` apart, each with ink in at least
 * `STACK_COVER` of the blob's columns (an MRZ line runs the width of its band; a caption and its
 * value do not), are that many lines. Anything else (one tall line, a photo's edge) is 0.
 */
export function stackedLines(mask: Uint8Array, w: number, box: { x0: number; y0: number; x1: number; y1: number }): number {
  const rows: number[] = [];
  for (let y = box.y0; y <= box.y1; y++) {
    let n = 0;
    for (let x = box.x0; x <= box.x1; x++) n += mask[y * w + x]!;
    rows.push(n);
  }
  const top = Math.max(...rows), level = (top + Math.min(...rows)) / 2;
  if (top === 0) return 0;
  const runs: [number, number][] = [];
  let start = -1;
  rows.forEach((n, k) => {
    if (n > level && start < 0) start = k;
    if ((n <= level || k === rows.length - 1) && start >= 0) { runs.push([start, n > level ? k : k - 1]); start = -1; }
  });
  if (runs.length < 2 || runs.length > 3) return 0;
  const heights = runs.map(([a, b]) => b - a + 1);
  // Each line fills a good part of its share of the blob: the top and bottom bars of one bold line
  // are two runs of a row or two.
  if (Math.min(...heights) < Math.max(4, STACK_FILL * (rows.length / runs.length))) return 0;
  if (Math.min(...heights) < STACK_EVEN * Math.max(...heights)) return 0;
  // Lines stand apart: a bold line's own strokes (the bars of E, Z, S) dip its profile for a row or two.
  const mean = heights.reduce((a, b) => a + b, 0) / heights.length;
  if (runs.some((r, k) => k > 0 && r[0] - runs[k - 1]![1] - 1 < STACK_GAP * mean)) return 0;
  const cover = ([a, b]: [number, number]) => {
    let n = 0;
    for (let x = box.x0; x <= box.x1; x++) {
      for (let y = box.y0 + a; y <= box.y0 + b; y++) if (mask[y * w + x]) { n++; break; }
    }
    return n / (box.x1 - box.x0 + 1);
  };
  return runs.every((r) => cover(r) >= STACK_COVER) ? runs.length : 0;
}

/**
 * 3.12: the least height of a merged blob's shortest line against its tallest (`stackedLines`). An MRZ's
 * lines are one font at one size; a caption over its value is not (on the synthetic passport pages,
 * caption and value merged at 0.5–0.7 and, split, outranked the MRZ).
 */
const STACK_EVEN = 0.8;

/** 3.12: the least height of each line of a merged blob, against the blob's height over its lines (`stackedLines`); 4 rows at least, a line blob's own least. */
const STACK_FILL = 0.35;

/** 3.12: the least gap between a merged blob's lines, against their mean height (`stackedLines`); the textured tuning MRZ that needed the split measured about 1.0. */
const STACK_GAP = 0.4;

/** 3.12: the least share of a merged blob's columns each of its lines must put ink in (`stackedLines`). */
const STACK_COVER = 0.5;

/**
 * What one source image's searches share: a scan searches the same image several times (the
 * dominant text's angle, across it, a second direction, quarter turns, a finer copy), and the
 * working-size grey copy, each turned copy and its text mask are functions of the same pixels and
 * the same sizes, so each is computed once. Keyed by the source's buffer (its working image), kept
 * only as long as that is.
 */
interface SearchMemo { grey: Map<string, Promise<Gray>>; turned: Map<string, Promise<Gray>>; masks: Map<string, Uint8Array> }
const memos = new WeakMap<Buffer, SearchMemo>();

export async function locateMrzBands(src: { data: Buffer; width: number; height: number; channels: 1 | 3 }, opts: LocateOptions): Promise<MrzBand[]> {
  // Small captures are enlarged (up to 2×) so that the morphology sees characters of a usable size.
  const scale = Math.min(2, opts.workSide / Math.max(src.width, src.height));
  const ww = Math.max(1, Math.round(src.width * scale)), wh = Math.max(1, Math.round(src.height * scale));
  let memo = memos.get(src.data);
  if (!memo) memos.set(src.data, (memo = { grey: new Map(), turned: new Map(), masks: new Map() }));
  const size = `${ww}x${wh}`;
  if (!memo.grey.has(size)) {
    // A pipeline of its own, not `clone()` of one: sharp clones with structuredClone, which copies
    // the whole input buffer (18 MB for a 12-megapixel photo).
    memo.grey.set(size, sharp(src.data, { raw: { width: src.width, height: src.height, channels: src.channels } }).greyscale().resize(ww, wh, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true })
      .then(({ data }) => ({ data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: ww, height: wh })));
  }
  const g = await memo.grey.get(size)!;
  const turnedCopy = (angle: number): Promise<Gray> => {
    if (angle === 0) return Promise.resolve(g);
    const key = `${size}:${angle}`;
    if (!memo.turned.has(key)) memo.turned.set(key, turn(g, angle));
    return memo.turned.get(key)!;
  };
  // The text mask at full level of a turned copy (what `classicalLines` computes first), for the
  // classical line search only: another line finder is given none.
  const maskOf = (angle: number, turned: Gray): Uint8Array | undefined => {
    if (opts.lines || (opts.faint ?? 1) !== 1) return undefined;
    const key = `${size}:${angle}`;
    let m = memo.masks.get(key);
    if (!m) memo.masks.set(key, (m = textMask(turned)));
    return m;
  };
  let angles = opts.angles;
  if (!angles) {
    const found = textAngles(maskOf(0, g) ?? textMask(g), g.width, g.height);
    // Lines descending to the right at angle a (image y down) become horizontal after a turn by −a;
    // either this or the turn by 180 − a (upside down) is upright, which the reader settles.
    const turnOf = (a: number) => (a > 90 ? 180 - a : -a);
    const rot = turnOf(found.first);
    angles = rot === 0 ? [0] : [rot, 0];
    if (opts.report) {
      opts.report.across = rot <= 0 ? rot + 90 : rot - 90;
      if (found.second !== undefined) opts.report.second = turnOf(found.second);
    }
  }
  const bands: MrzBand[] = [];
  const queue = [...angles];
  const searched = [...(opts.skipAngles ?? [])];
  let extra = 0;
  for (let qi = 0; qi < queue.length; qi++) {
    const angle = queue[qi]!;
    searched.push(angle);
    const turned = await turnedCopy(angle);
    // Tilt passes look for tilts themselves only in the passes asked for, not in their own.
    const found = await (opts.lines ?? classicalLines)(turned, opts.tilt && qi < angles.length, opts.adaptiveJoin, opts.faint, opts.stripLines, maskOf(angle, turned), opts.thin);
    // Lines descending to the right by d degrees become level after a further turn by −d.
    for (const d of found.tilts ?? []) {
      const next = Math.round((angle - d) * 4) / 4;
      if (extra < 2 && ![...searched, ...queue.slice(qi + 1)].some((a) => Math.abs(a - next) < 0.75)) { queue.push(next); extra++; }
    }
    const mask = found.mask;
    const seen = new Map<string, MrzBand>();
    const keyOf = (b: { x0: number; y0: number; x1: number; y1: number }) => `${b.x0},${b.y0},${b.x1},${b.y1}`;
    // 2.7 (`extendFirst`): lines are also compared as if grown through their filler gaps, so a name
    // line cut short at its `<` run still pairs with the line below it (widths within 25 %). Bands
    // only that pairing forms are a fallback, taken after every strictly paired band of every join.
    const strict = found.blobs.map((blobs) => groupBands(blobs, turned.width));
    const spanOnly = opts.extendFirst
      ? found.blobs.flatMap((blobs, k) => {
        const formed = new Set(strict[k]!.map(keyOf));
        const spans = new Map(blobs.map((l) => [l, extend({ ...l, lineHeight: l.y1 - l.y0 + 1 }, mask, turned.width)]));
        return groupBands(blobs, turned.width, spans).filter((b) => !formed.has(keyOf(b))).map((b) => ({ ...b, fallback: true as const }));
      })
      : [];
    // 3.12 (`splitMerged`): a merged band whose rows hold two or three lines is ranked as a stack.
    const stacked = (b: (typeof strict)[number][number]) => {
      const n = opts.splitMerged && b.lines === 0 ? stackedLines(mask, turned.width, b) : 0;
      if (!n) return b;
      const lh = (b.y1 - b.y0 + 1) / n;
      return { ...b, lines: n, lineHeight: lh, score: bandScore((b.x1 - b.x0) / lh, n, (b.x1 - b.x0) / turned.width), split: true as const };
    };
    for (const b0 of [...strict.flat().map(stacked), ...spanOnly]) {
      const b = extend(b0, mask, turned.width);
      const key = `${Math.round(b.x0 / 8)},${Math.round(b.y0 / 8)},${Math.round(b.x1 / 8)},${Math.round(b.y1 / 8)}`;
      const known = seen.get(key);
      if (known) {
        // 3.12 (`bestJoin`): the same band formed at another join ranks by its better score. The
        // first join can pair only part of a line (the rest of it joins later, `extend` grows both
        // to the same box); 2.x–3.11 kept the first, partial pairing's score.
        if (opts.bestJoin && !('fallback' in b) && !known.fallback && b.score > known.score) known.score = b.score;
        continue;
      }
      const padX = 1.2 * b.lineHeight, padY = 0.8 * b.lineHeight;
      const left = Math.max(0, (b.x0 - padX) / scale), top = Math.max(0, (b.y0 - padY) / scale);
      const tw = turned.width / scale, th = turned.height / scale;
      const band: MrzBand = {
        angle, left: Math.round(left), top: Math.round(top),
        width: Math.round(Math.min(tw, (b.x1 + padX) / scale) - left), height: Math.round(Math.min(th, (b.y1 + padY) / scale) - top),
        lines: b.lines, lineHeight: b.lineHeight / scale, score: b.score,
        ...('fallback' in b ? { fallback: true } : {}),
        ...('split' in b ? { split: true } : {}),
      };
      seen.set(key, band);
      bands.push(band);
    }
    // The dominant text need not run the MRZ's way (a passport's upper page is printed sideways):
    // bands of both passes are ranked together.
  }
  const ranked = bands.sort((a, b) => b.score - a.score);
  // 2.7: the best band only the grown spans paired comes after the strict ones, in one extra slot.
  return [...ranked.filter((b) => !b.fallback).slice(0, opts.maxBands), ...ranked.filter((b) => b.fallback).slice(0, 1)];
}

/**
 * Fillers (`<`) are thin and often drop out of the mask, splitting a line's blob: grow the band
 * sideways while ink continues within one and a half line heights.
 */
function extend<T extends { x0: number; y0: number; x1: number; y1: number; lineHeight: number }>(b: T, mask: Uint8Array, w: number): T {
  const gap = Math.max(4, Math.round(1.5 * b.lineHeight));
  const colInk = (x: number) => {
    for (let y = b.y0; y <= b.y1; y++) if (mask[y * w + x]) return true;
    return false;
  };
  let x1 = b.x1, x0 = b.x0;
  for (let x = x1 + 1, miss = 0; x < w && miss <= gap; x++) { if (colInk(x)) { x1 = x; miss = 0; } else miss++; }
  for (let x = x0 - 1, miss = 0; x >= 0 && miss <= gap; x--) { if (colInk(x)) { x0 = x; miss = 0; } else miss++; }
  return { ...b, x0, x1 };
}

async function turn(g: Gray, angle: number): Promise<Gray> {
  const { data, info } = await sharp(Buffer.from(g.data.buffer, g.data.byteOffset, g.data.length), { raw: { width: g.width, height: g.height, channels: 1 } })
    .rotate(angle, { background: { r: 255, g: 255, b: 255 } }).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}
