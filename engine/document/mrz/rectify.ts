/**
 * 3.17 (`scan.retry.rectify`): a band seen under perspective, made a rectangle again.
 *
 * Every MRZ line is printed the full width of its document (fillers are ink), from one left margin
 * to one right margin, parallel to the others. A photo taken at a slant (one edge of the document
 * nearer the lens) breaks all three: the lines start and end at different places, run at different
 * angles and their glyphs grow along them. One angle per band (3.16's deskew) levels none of that;
 * the readers that cut a band into lines and fixed-pitch cells (the MRZ recogniser, the glyph
 * reader) then read garbage. The band's own lines give the four corners of the quadrilateral they
 * were printed in (the ends of the first and last line), and a homography maps it back to a
 * rectangle. Only when the measured distortion is material (`rectifyingQuad`): a band printed
 * square is cut exactly as before.
 */

import { homography, warp, type Point } from '../image/warp.js';
import { components } from './locate.js';

/** One text line of a band: centre line `y = a + b·x`, median ink height, its ink extent, and whether that extent is sure (`lineExtent`). */
export interface BandLine { a: number; b: number; height: number; x0: number; x1: number; sure: boolean }

/** Vertical strips a band is cut into to follow each line's centre across it. */
const STRIPS = 8;

/**
 * The text lines of a band's ink mask (1 = ink), or null when they cannot be followed: each of
 * `STRIPS` vertical strips gives its rows' ink runs; the strips with the commonest number of runs
 * (two or three: an MRZ) name the lines, and each line's centre is fitted across them.
 */
export function bandLines(mask: Uint8Array, w: number, h: number): BandLine[] | null {
  if (w < 64 || h < 12) return null;
  const sw = Math.floor(w / STRIPS);
  const found: { x: number; runs: { y: number; height: number }[] }[] = [];
  for (let s = 0; s < STRIPS; s++) {
    const x0 = s * sw, x1 = s === STRIPS - 1 ? w : x0 + sw;
    const rows = new Float64Array(h);
    for (let y = 0; y < h; y++) { let n = 0; for (let x = x0; x < x1; x++) n += mask[y * w + x]!; rows[y] = n; }
    const peak = Math.max(...rows);
    if (!(peak > 0)) { found.push({ x: (x0 + x1) / 2, runs: [] }); continue; }
    const runs: { a: number; b: number; mass: number; moment: number }[] = [];
    let a = -1, mass = 0, moment = 0, gap = 0;
    for (let y = 0; y <= h; y++) {
      const on = y < h && rows[y]! > 0.15 * peak;
      if (on) { if (a < 0) { a = y; mass = 0; moment = 0; } mass += rows[y]!; moment += rows[y]! * y; gap = 0; continue; }
      // A row or two without ink inside a line (a rule taken out, a thin waist) does not end it.
      if (a >= 0 && y < h && gap < 2) { gap++; continue; }
      if (a >= 0) runs.push({ a, b: y - gap - 1, mass, moment });
      a = -1; gap = 0;
    }
    const tallest = Math.max(0, ...runs.map((r) => r.b - r.a + 1));
    const kept = runs.filter((r) => r.b - r.a + 1 >= Math.max(3, 0.5 * tallest));
    found.push({ x: (x0 + x1) / 2, runs: kept.map((r) => ({ y: r.moment / r.mass, height: r.b - r.a + 1 })) });
  }
  // The commonest run count of two or three: strips where a line is missing (it starts later) or two merge are left out.
  const counts = new Map<number, number>();
  for (const f of found) if (f.runs.length === 2 || f.runs.length === 3) counts.set(f.runs.length, (counts.get(f.runs.length) ?? 0) + 1);
  const k = [...counts.entries()].sort((p, q) => q[1] - p[1] || q[0] - p[0])[0]?.[0];
  if (!k) return null;
  const use = found.filter((f) => f.runs.length === k);
  if (use.length < 3) return null;
  const lines: BandLine[] = [];
  for (let i = 0; i < k; i++) {
    const xs = use.map((f) => f.x), ys = use.map((f) => f.runs[i]!.y);
    const n = xs.length, mx = xs.reduce((p, v) => p + v, 0) / n, my = ys.reduce((p, v) => p + v, 0) / n;
    let sxy = 0, sxx = 0;
    for (let j = 0; j < n; j++) { sxy += (xs[j]! - mx) * (ys[j]! - my); sxx += (xs[j]! - mx) ** 2; }
    const b = sxx ? sxy / sxx : 0;
    const heights = use.map((f) => f.runs[i]!.height).sort((p, q) => p - q);
    const height = heights[Math.floor(heights.length / 2)]!;
    const extent = lineExtent(mask, w, h, my - b * mx, b, height);
    if (!extent) return null;
    lines.push({ a: my - b * mx, b, height, ...extent });
  }
  return lines;
}

/**
 * The ink of character-sized marks only: components 0.4 to 1.6 median glyph heights tall (a filler
 * `<` is shorter than a letter), and no wider than 3 (two or three touching characters) unless as
 * solid as print (a run of fillers that touch in small print: a quarter of its box or more is ink).
 * A document's edge, a rule, a wave of guilloche, the background beyond the document or a stamp
 * running into the band would otherwise lengthen a line or pull its centre. Null when there are
 * too few marks.
 */
export function characterMask(ink: Uint8Array, w: number, h: number): Uint8Array | null {
  const labels = new Int32Array(w * h);
  const blobs = components(ink, w, h, labels);
  const heights = blobs.map((b) => ({ bw: b.x1 - b.x0 + 1, bh: b.y1 - b.y0 + 1 })).filter((b) => b.bh >= 4 && b.bh <= h / 2 && b.bw <= 2 * b.bh).map((b) => b.bh).sort((p, q) => p - q);
  if (heights.length < 16) return null;
  const median = heights[Math.floor(heights.length / 2)]!;
  const keep = blobs.map((b) => {
    const bw = b.x1 - b.x0 + 1, bh = b.y1 - b.y0 + 1;
    return bh >= 0.4 * median && bh <= 1.6 * median && (bw <= 3 * median || b.px >= 0.25 * bw * bh);
  });
  const out = new Uint8Array(w * h);
  for (let i = 0; i < out.length; i++) if (labels[i]! > 0 && keep[labels[i]! - 1]) out[i] = 1;
  return out;
}

/**
 * The ink extent of the line along `y = a + b·x`: the columns with ink within 0.6 of a line height
 * of it, joined across gaps up to `join` line heights, the longest such run. Measured twice: across
 * the space between two characters (1.2) and across a character or two lost to the character filter
 * or faded (2.5). Where the two differ by more than half a character at either end, the end is not
 * known (a lost glyph cut the line, or marks beside the MRZ joined it) and the extent is unsure.
 */
function lineExtent(mask: Uint8Array, w: number, h: number, a: number, b: number, height: number): { x0: number; x1: number; sure: boolean } | null {
  const tight = extentAt(mask, w, h, a, b, height, 1.2), loose = extentAt(mask, w, h, a, b, height, 2.5);
  if (!loose) return null;
  const sure = !!tight && Math.abs(tight.x0 - loose.x0) <= 0.5 * height && Math.abs(tight.x1 - loose.x1) <= 0.5 * height;
  return { ...loose, sure };
}

function extentAt(mask: Uint8Array, w: number, h: number, a: number, b: number, height: number, joinHeights: number): { x0: number; x1: number } | null {
  const reach = 0.6 * height, join = joinHeights * height;
  let best: { x0: number; x1: number; n: number } | null = null;
  let cur: { x0: number; x1: number; n: number } | null = null;
  for (let x = 0; x < w; x++) {
    const yc = a + b * x;
    const ya = Math.max(0, Math.round(yc - reach)), yb = Math.min(h - 1, Math.round(yc + reach));
    let ink = 0;
    for (let y = ya; y <= yb; y++) ink += mask[y * w + x]!;
    if (ink < 2) continue;
    if (cur && x - cur.x1 <= join) { cur.x1 = x; cur.n++; } else { cur = { x0: x, x1: x, n: 1 }; }
    if (!best || cur.n > best.n) best = cur;
  }
  return best && best.x1 - best.x0 >= 8 * height ? { x0: best.x0, x1: best.x1 } : null;
}

/** Four points: the first line's start and end, the last line's start and end. */
export type Quad = [Point, Point, Point, Point];

/**
 * The quadrilateral to rectify (the ends of the first and last lines), or null when the band is
 * square enough to read as it is (`isSquare`) or its measure cannot be trusted: a line end that is
 * not sure, lines too close, implausible shapes (a line much shorter than the other, a steep line).
 */
export function rectifyingQuad(lines: BandLine[], chars?: { mask: Uint8Array; w: number; h: number }): Quad | null {
  if (lines.length < 2) return null;
  const t = lines[0]!, l = lines[lines.length - 1]!;
  if (!t.sure || !l.sure) return null;
  const wt = t.x1 - t.x0, wl = l.x1 - l.x0;
  // A first line under 0.8 of the last's length would put the vanishing point within five line
  // spacings of the band: no camera sees a document so. Such a difference is a line measured short.
  if (Math.min(wt, wl) < 0.8 * Math.max(wt, wl) || Math.abs(t.b) > 0.15 || Math.abs(l.b) > 0.15) return null;
  const hl = (t.height + l.height) / 2;
  const xm = (Math.min(t.x0, l.x0) + Math.max(t.x1, l.x1)) / 2;
  const apart = (l.a + l.b * xm) - (t.a + t.b * xm);
  if (apart < 0.8 * hl || isSquare(lines)) return null;
  // Where one line stops short of the other, it must really stop: along its course beyond its
  // measured end there are (nearly) no character marks. A gap wider than the join (fillers faded
  // or lost in a guilloche) would otherwise make a line look shorter than it is.
  if (chars && !(endsHold(chars, t, l) && endsHold(chars, l, t))) return null;
  const at = (ln: BandLine, x: number): Point => [x, ln.a + ln.b * x];
  return [at(t, t.x0), at(t, t.x1), at(l, l.x0), at(l, l.x1)];
}

/**
 * The first and last lines start and end within half a character of each other (an MRZ's pitch is
 * about its glyph height) and close in on each other by at most a quarter of a line height across
 * the band (3.16's deskew threshold, 0.3 degrees over a band, is about the same drift): square
 * enough to read as cut.
 */
export function isSquare(lines: BandLine[]): boolean {
  const d = distortion(lines);
  return d.ends <= 0.5 * d.hl && d.closing <= 0.25 * d.hl;
}

/**
 * How far the first and last lines are from square: the larger gap between their starts or their
 * ends, and how much they close in on each other across the band (px), with their mean height.
 */
export function distortion(lines: BandLine[]): { ends: number; closing: number; hl: number } {
  const t = lines[0]!, l = lines[lines.length - 1]!;
  const span = Math.max(t.x1, l.x1) - Math.min(t.x0, l.x0);
  return { ends: Math.max(Math.abs(t.x0 - l.x0), Math.abs(t.x1 - l.x1)), closing: Math.abs(l.b - t.b) * span, hl: (t.height + l.height) / 2 };
}

/**
 * Whether `line` has (almost) no character ink beyond its ends where `other` extends further: at
 * most a fifth of the columns there hold some within 0.4 of a line height of its centre.
 */
function endsHold(ink: { mask: Uint8Array; w: number; h: number }, line: BandLine, other: BandLine): boolean {
  const inked = (xa: number, xb: number) => {
    let n = 0, all = 0;
    for (let x = Math.max(0, Math.round(xa)); x <= Math.min(ink.w - 1, Math.round(xb)); x++) {
      const yc = line.a + line.b * x;
      const ya = Math.max(0, Math.round(yc - 0.4 * line.height)), yb = Math.min(ink.h - 1, Math.round(yc + 0.4 * line.height));
      let any = 0;
      for (let y = ya; y <= yb && !any; y++) any = ink.mask[y * ink.w + x]!;
      n += any; all++;
    }
    return all ? n / all : 0;
  };
  const margin = 0.5 * line.height;
  if (other.x0 < line.x0 - margin && inked(other.x0, line.x0 - margin) > 0.2) return false;
  if (other.x1 > line.x1 + margin && inked(line.x1 + margin, other.x1) > 0.2) return false;
  return true;
}

/**
 * The band redrawn with `quad` (its first and last lines' ends) made a rectangle: each of the two
 * lines level at the mean height of its ends, both from the leftmost start to the rightmost end.
 * Same size as the input; what maps from outside it is paper (255).
 */
export function rectifyBand(g: Buffer, w: number, h: number, quad: Quad): Buffer | null {
  const [[tx0, ty0], [tx1, ty1], [lx0, ly0], [lx1, ly1]] = quad;
  const left = Math.min(tx0, lx0), right = Math.max(tx1, lx1);
  const top = (ty0 + ty1) / 2, bottom = (ly0 + ly1) / 2;
  // From each output pixel back to the band (`warp` takes that map): no holes.
  const H = homography([[left, top], [right, top], [left, bottom], [right, bottom]], quad);
  if (!H.every(Number.isFinite)) return null;
  return warp({ data: g, width: w, height: h, channels: 1 }, H, w, h, [255]).data;
}
