import sharp from 'sharp';

/**
 * A fixed-pitch OCR-B reader. The MRZ is monospaced at 2.54 mm per character (ICAO 9303 Part 3),
 * so once the document is rectified to the template's size every character sits in a known-width
 * cell: find the text lines, fit the cell grid, and classify each cell by normalised
 * cross-correlation against the 37 glyphs rendered from the OCR-B font. It is fast (tens of ms)
 * and independent of tesseract, so the two can check each other on the name line, which no check
 * digit protects.
 */

export const MRZ_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ<';
const TWINS = new Set(['O', '0']);
const CELL_W = 16;
const CELL_H = 24;

interface Gray { data: Uint8Array; width: number; height: number }
export interface GlyphLine { text: string; scores: number[]; margins: number[] }
export interface GlyphRead { lines: GlyphLine[]; minScore: number; minMargin: number }

function otsu(g: Gray): number {
  const hist = new Array(256).fill(0);
  for (const v of g.data) hist[v]++;
  const total = g.data.length;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * hist[i];
  let sumB = 0, wB = 0, best = 0, threshold = 128;
  for (let t = 0; t < 256; t++) {
    wB += hist[t];
    if (!wB) continue;
    const wF = total - wB;
    if (!wF) break;
    sumB += t * hist[t];
    const mB = sumB / wB, mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) ** 2;
    if (between > best) { best = between; threshold = t; }
  }
  return threshold;
}

/** Rows holding text: runs of rows with ink, the `count` inkiest runs kept in reading order. */
function findLines(ink: Uint8Array, w: number, h: number, count: number): [number, number][] {
  const rows = new Array(h).fill(0);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) rows[y] += ink[y * w + x]!;
  const limit = Math.max(3, Math.max(...rows) * 0.08);
  const runs: { a: number; b: number; mass: number }[] = [];
  let start = -1, mass = 0;
  for (let y = 0; y <= h; y++) {
    const on = y < h && rows[y] > limit;
    if (on && start < 0) { start = y; mass = 0; }
    if (on) mass += rows[y];
    if (!on && start >= 0) { runs.push({ a: start, b: y - 1, mass }); start = -1; }
  }
  return runs.filter((r) => r.b - r.a >= 6).sort((p, q) => q.mass - p.mass).slice(0, count).sort((p, q) => p.a - q.a).map((r) => [r.a, r.b]);
}

/** Fits the cell grid (origin and pitch) so that cell borders fall in the gaps between glyphs. */
function fitGrid(cols: number[], n: number, nominalPitch: number): { origin: number; pitch: number } {
  let first = cols.findIndex((c) => c > 0);
  if (first < 0) first = 0;
  let best = { origin: first, pitch: nominalPitch, cost: Infinity };
  for (let p = nominalPitch * 0.94; p <= nominalPitch * 1.06; p += nominalPitch * 0.005) {
    for (let o = first - p * 0.45; o <= first + 1; o += 1) {
      let cost = 0;
      for (let i = 0; i <= n; i++) {
        const x = Math.round(o + i * p);
        cost += x >= 0 && x < cols.length ? cols[x]! : 0;
      }
      // Ink beyond the last cell means the pitch is too small.
      const end = Math.round(o + n * p);
      for (let x = end + 2; x < Math.min(cols.length, end + p * 0.5); x++) cost += cols[x]! * 2;
      if (cost < best.cost) best = { origin: o, pitch: p, cost };
    }
  }
  return best;
}

function cellVector(g: Gray, x0: number, x1: number, y0: number, y1: number): Float32Array {
  const v = new Float32Array(CELL_W * CELL_H);
  const sw = (x1 - x0) / CELL_W, sh = (y1 - y0) / CELL_H;
  let mean = 0;
  for (let j = 0; j < CELL_H; j++) for (let i = 0; i < CELL_W; i++) {
    // Box-average the source pixels of each target cell: robust to the scale of the capture.
    let s = 0, c = 0;
    for (let y = Math.floor(y0 + j * sh); y < Math.ceil(y0 + (j + 1) * sh); y++) for (let x = Math.floor(x0 + i * sw); x < Math.ceil(x0 + (i + 1) * sw); x++) {
      if (x >= 0 && y >= 0 && x < g.width && y < g.height) { s += 255 - g.data[y * g.width + x]!; c++; }
    }
    const val = c ? s / c : 0;
    v[j * CELL_W + i] = val;
    mean += val;
  }
  mean /= v.length;
  let norm = 0;
  for (let k = 0; k < v.length; k++) { v[k]! -= mean; norm += v[k]! ** 2; }
  norm = Math.sqrt(norm) || 1;
  for (let k = 0; k < v.length; k++) v[k]! /= norm;
  return v;
}

/**
 * 2.2 (`box`): the cell's vector taken over its glyph's own ink box (rows from the glyph's top to
 * its bottom, columns centred on it and at least 0.6 of its height wide) instead of the line's
 * rows and the pitch. Photo captures print the MRZ in OCR-B variants whose glyph size within the
 * pitch differs from the font's: at the line's scale a small `<` correlates as well with K, F or W
 * as with the font's `<` (measured on the real tuning crops); at its own scale it does not.
 */
function boxVector(g: Gray, ink: Uint8Array, x0: number, x1: number, y0: number, y1: number): Float32Array {
  const rows = glyphRows(ink, g.width, x0, x1, y0, y1);
  if (!rows) return cellVector(g, x0, x1, y0, y1);
  const xa = Math.max(0, Math.floor(x0)), xb = Math.min(g.width, Math.ceil(x1));
  let bx0 = Infinity, bx1 = -1;
  for (let y = rows[0]; y <= rows[1]; y++) for (let x = xa; x < xb; x++) if (ink[y * g.width + x]) { if (x < bx0) bx0 = x; if (x > bx1) bx1 = x; }
  const gh = rows[1] - rows[0] + 1, cx = (bx0 + bx1 + 1) / 2, half = Math.max(bx1 - bx0 + 1, 0.6 * gh) / 2;
  return cellVector(g, cx - half, cx + half, rows[0], rows[1] + 1);
}

/**
 * A line's pitch from its own ink (2.2, `pitchPx` 0: crops from a photo have no known scale): the
 * longest run of inked columns with no gap wider than a line height (a stray mark or an edge
 * beside the line is left out) spans n − 1 pitches and one glyph of about 0.7 pitch.
 */
export function inkRun(cols: number[], lineHeight: number): { first: number; last: number } {
  let best = { a: 0, b: -1 }, a = -1, last = -1;
  for (let x = 0; x < cols.length; x++) {
    if (!cols[x]) continue;
    if (a < 0 || x - last > lineHeight) a = x;
    last = x;
    if (last - a > best.b - best.a) best = { a, b: last };
  }
  return { first: best.a, last: best.b };
}

/** Segments `lineCount` lines of `n` cells each; returns each cell's vector, centred on its ink. */
function segment(g: Gray, lineCount: number, n: number, nominalPitch: number, box = false): Float32Array[][] | null {
  return segmentBoth(g, lineCount, n, nominalPitch, box)?.map((row) => row.map((c) => c[0])) ?? null;
}

/** Each cell's vector at the line's scale, and (`box`) at its glyph's own scale. */
function segmentBoth(g: Gray, lineCount: number, n: number, nominalPitch: number, box: boolean): [Float32Array, Float32Array?][][] | null {
  const t = otsu(g);
  const ink = new Uint8Array(g.width * g.height);
  for (let k = 0; k < ink.length; k++) ink[k] = g.data[k]! < t ? 1 : 0;
  const lines = findLines(ink, g.width, g.height, lineCount);
  if (lines.length !== lineCount) return null;
  return lines.map(([a, b]) => {
    let cols = new Array(g.width).fill(0);
    for (let y = a; y <= b; y++) for (let x = 0; x < g.width; x++) cols[x] += ink[y * g.width + x]!;
    let nominal = nominalPitch;
    if (!(nominal > 0)) {
      const run = inkRun(cols, b - a + 1);
      cols = cols.map((v, x) => (x >= run.first && x <= run.last ? v : 0));
      nominal = (run.last - run.first + 1) / (n - 0.3);
    }
    const { origin, pitch } = fitGrid(cols, n, nominal);
    const pad = (b - a) * 0.08;
    const centres = Array.from({ length: n }, (_, i) => {
      const x0 = origin + i * pitch, x1 = x0 + pitch;
      // Re-centre the cell on its ink so a small grid error does not cut a glyph.
      let m = 0, s = 0;
      for (let x = Math.max(0, Math.floor(x0)); x < Math.min(g.width, Math.ceil(x1)); x++) { m += cols[x]!; s += cols[x]! * x; }
      return m > 0 ? s / m : (x0 + x1) / 2;
    });
    // 2.2 (`box`): the line's own baseline. A photo crop's line can drift a few pixels over its
    // length (residual skew, perspective), so the rows it spans as a whole are taller than a glyph
    // and each glyph sits high or low in them; the templates' glyphs sit centred. Fit the glyph
    // centres along the line and cut each cell at one glyph height about the fit.
    let rowsOf = (_i: number): [number, number] => [a - pad, b + pad];
    if (box) {
      const ext = centres.map((cx) => glyphRows(ink, g.width, cx - pitch / 2, cx + pitch / 2, a - pad, b + pad));
      const heights = ext.filter((e) => e).map((e) => e![1] - e![0] + 1).sort((p, q) => p - q);
      const capH = heights[Math.floor(heights.length * 0.75)] ?? b - a + 1;
      const pts = ext.map((e, i) => (e && e[1] - e[0] + 1 >= 0.8 * capH ? [centres[i]!, (e[0] + e[1]) / 2] : null)).filter((q): q is number[] => !!q);
      if (pts.length >= 4) {
        const mx = pts.reduce((v, q) => v + q[0]!, 0) / pts.length, my = pts.reduce((v, q) => v + q[1]!, 0) / pts.length;
        let sxy = 0, sxx = 0;
        for (const [x, y] of pts) { sxy += (x! - mx) * (y! - my); sxx += (x! - mx) ** 2; }
        const slope = sxx ? sxy / sxx : 0, half = capH / 2 + 0.08 * capH;
        rowsOf = (i) => { const y = my + slope * (centres[i]! - mx); return [y - half, y + half]; };
      }
    }
    return centres.map((cx, i) => {
      const [y0, y1] = rowsOf(i);
      const line = cellVector(g, cx - pitch / 2, cx + pitch / 2, y0, y1);
      return (box ? [line, boxVector(g, ink, cx - pitch / 2, cx + pitch / 2, y0 - pad, y1 + pad)] : [line]) as [Float32Array, Float32Array?];
    });
  });
}

/** The rows of a glyph in a cell: the run of inked rows (one-row gaps bridged) holding the most ink. */
function glyphRows(ink: Uint8Array, w: number, x0: number, x1: number, y0: number, y1: number): [number, number] | null {
  const xa = Math.max(0, Math.floor(x0)), xb = Math.min(w, Math.ceil(x1));
  const ya = Math.max(0, Math.floor(y0)), yb = Math.min(ink.length / w, Math.ceil(y1));
  let best = { a: -1, b: -1, mass: 0 }, run = { a: -1, b: -1, mass: 0 }, gap = 0;
  for (let y = ya; y < yb; y++) {
    let n = 0;
    for (let x = xa; x < xb; x++) n += ink[y * w + x]!;
    if (n) {
      if (run.a < 0 || gap > 1) run = { a: y, b: y, mass: 0 };
      run.b = y; run.mass += n; gap = 0;
      if (run.mass > best.mass) best = { ...run };
    } else gap++;
  }
  return best.a < 0 ? null : [best.a, best.b];
}

async function toGray(png: Buffer): Promise<Gray> {
  const { data, info } = await sharp(png).greyscale().normalise().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

export class GlyphReader {
  private constructor(private readonly templates: { char: string; v: Float32Array }[], private readonly boxTemplates: { char: string; v: Float32Array }[]) {}

  /**
   * Renders the alphabet in OCR-B at the MRZ geometry the reader will see (pitch in pixels) and
   * keeps the glyph vectors, sharp and slightly blurred, as the classifier's references.
   */
  static async create(pitchPx: number): Promise<GlyphReader> {
    const templates: { char: string; v: Float32Array }[] = [];
    const boxTemplates: { char: string; v: Float32Array }[] = [];
    const font = pitchPx * (3.5 / 2.54);
    // A `<`-free lead-in makes every template line segment like a real MRZ line.
    const line = 'P' + MRZ_ALPHABET + 'X';
    const width = Math.round(line.length * pitchPx + pitchPx * 2);
    const height = Math.round(font * 1.6);
    const xs = Array.from(line, (_, k) => (pitchPx + k * pitchPx + pitchPx * 0.12).toFixed(1)).join(' ');
    const esc = line.replace(/</g, '&lt;');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/><text x="${xs}" y="${(font * 1.1).toFixed(1)}" font-family="OCR B" font-size="${font.toFixed(1)}" fill="black">${esc}</text></svg>`;
    for (const blur of [0, 1.2]) {
      let img = sharp(Buffer.from(svg)).flatten({ background: '#fff' });
      if (blur) img = img.blur(blur);
      const g = await toGray(await img.png().toBuffer());
      const cells = segment(g, 1, line.length, pitchPx);
      if (!cells) throw new Error('could not segment the OCR-B reference line');
      cells[0]!.forEach((v, i) => { if (i > 0 && i <= MRZ_ALPHABET.length) templates.push({ char: line[i]!, v }); });
      const boxed = segmentBoth(g, 1, line.length, pitchPx, true)!;
      boxed[0]!.forEach((v, i) => { if (i > 0 && i <= MRZ_ALPHABET.length) boxTemplates.push({ char: line[i]!, v: v[1]! }); });
    }
    return new GlyphReader(templates, boxTemplates);
  }

  /**
   * `pitchPx` 0: each line's pitch from its own inked run (photo crops). `box` (2.2): glyphs
   * compared at their own ink box's scale (`boxVector`).
   */
  async read(bandPng: Buffer, lineCount: number, lineLength: number, pitchPx: number, box = false): Promise<GlyphRead | null> {
    const g = await toGray(bandPng);
    const cells = segmentBoth(g, lineCount, lineLength, pitchPx, box);
    if (!cells) return null;
    let minScore = 1, minMargin = 1;
    const lines = cells.map((row) => {
      const scores: number[] = [], margins: number[] = [];
      const text = row.map(([v, vb]) => {
        const best = new Map<string, number>();
        for (const t of this.templates) {
          let dot = 0;
          for (let k = 0; k < v.length; k++) dot += v[k]! * t.v[k]!;
          if (dot > (best.get(t.char) ?? -2)) best.set(t.char, dot);
        }
        // 2.2 (`box`): line-scale correlation (cells cut about the fitted baseline) weighted 3:1 with
        // the glyph-scale one. On the real tuning crops the fitted baseline alone fixed E/F, L/C and
        // `<` vs K/W; the glyph-scale term alone confused E/F and L/C (0.5 weight still did).
        if (vb) {
          const boxBest = new Map<string, number>();
          for (const t of this.boxTemplates) {
            let dot = 0;
            for (let k = 0; k < vb.length; k++) dot += vb[k]! * t.v[k]!;
            if (dot > (boxBest.get(t.char) ?? -2)) boxBest.set(t.char, dot);
          }
          const wBox = 0.25;
          for (const [c, sc] of best) best.set(c, (1 - wBox) * sc + wBox * (boxBest.get(c) ?? -1));
        }
        const ranked = [...best.entries()].sort((a, b) => b[1] - a[1]);
        const [c1, s1] = ranked[0]!;
        // O and 0 are near-identical in OCR-B; the format (repairLines) and check digits settle them,
        // so the margin that measures doubt is the one to the best non-twin.
        const s2 = ranked.find(([c]) => c !== c1 && !(TWINS.has(c) && TWINS.has(c1)))![1];
        scores.push(s1); margins.push(s1 - s2);
        minScore = Math.min(minScore, s1); minMargin = Math.min(minMargin, s1 - s2);
        return c1;
      }).join('');
      return { text, scores, margins };
    });
    return { lines, minScore, minMargin };
  }
}
