import sharp from 'sharp';
import type { OcrLine, OcrWorker } from '../ocr/workers.js';
import type { GlyphReader } from './glyphs.js';
import { locateMrzBands, type LineFinder, type MrzBand } from './locate.js';
import { parseMrz, type MrzFormat, type ParsedMrz } from './parse.js';
import { repairLines } from './repair.js';

/**
 * Reads the MRZ of a whole photo or scan (document engine 2.x): locate candidate bands anywhere
 * in the frame at any rotation (`locate.ts`), read each with the MRZ tesseract model (upright,
 * then turned 180° when the read makes no sense), fix letter/digit confusions where the field
 * type or a check digit decides, and confirm the name line, which no check digit covers, with a
 * second independent read. `valid` therefore means: every check digit holds, the structure is
 * sound, and two reads agree on the name line.
 */

export type MrzReason = 'mrz_not_found' | 'mrz_unreadable' | 'mrz_check_digits_failed';

export interface ScanAttempt { band: number; flipped: boolean; source: string; lines: string[] | null; checksOk: number; checks: number; ms: number }

export interface MrzScan {
  parsed: ParsedMrz | null;
  valid: boolean;
  /** Set whenever `valid` is false. */
  reason?: MrzReason;
  /** Per kept line, 0..1 (tesseract's line confidence; the lowest character margin for the glyph reader). */
  lineConfidence: number[];
  /** Lowest line confidence, halved when the name line could not be confirmed. */
  confidence: number;
  /** The second read agreed on the name line. */
  nameConfirmed: boolean;
  /** Characters changed because a check digit or the field type decided them. */
  corrections: number;
  band?: Omit<MrzBand, 'score'> & { flipped: boolean };
  attempts: ScanAttempt[];
  bandsFound: number;
}

export interface ScanOptions {
  workSide: number;
  maxBands: number;
  timeoutMs: number;
  /** Line height (px) the band is scaled to before OCR. */
  lineHeightPx: number;
  /** Most tesseract reads per image. */
  maxReads?: number;
  plausible?: (p: ParsedMrz) => boolean;
  /** Line finder for the band search (default: classical morphology). */
  lines?: LineFinder;
}

export interface ScanReaders { tesseract: OcrWorker; glyph?: GlyphReader; glyphPitchPx?: number }

const WIDTHS: Record<MrzFormat, number> = { TD1: 30, TD2: 36, TD3: 44 };
const COUNTS: Record<MrzFormat, number> = { TD1: 3, TD2: 2, TD3: 2 };
const NAME_LINE: Record<MrzFormat, number> = { TD1: 2, TD2: 0, TD3: 0 };

const norm = (l: string) => l.toUpperCase().replace(/[«‹]/g, '<').replace(/\s+/g, '').replace(/[^A-Z0-9<]/g, '');

/** Fits a raw line to `width`: the filler run nearest the end absorbs extra or missing `<`. */
function fit(l: string, width: number): string {
  if (l.length === width) return l;
  if (l.length > width) {
    const extra = l.length - width;
    const m = /<{2,}(?=[^<]*$)/.exec(l);
    if (m && m[0].length > extra) return l.slice(0, m.index) + '<'.repeat(m[0].length - extra) + l.slice(m.index + m[0].length);
    return l.slice(0, width);
  }
  const m = /<+(?=[^<]{0,3}$)/.exec(l);
  if (m) return l.slice(0, m.index) + '<'.repeat(m[0].length + width - l.length) + l.slice(m.index + m[0].length);
  return l.padEnd(width, '<');
}

/** OCR lines → the MRZ lines of the format their lengths say (last `count` lines that fit). */
export function mrzLinesFromOcr(raw: OcrLine[]): { format: MrzFormat; lines: string[]; confidences: number[] } | null {
  const cand = raw.map((l) => ({ text: norm(l.text), confidence: l.confidence / 100 })).filter((l) => l.text.length >= 24 && l.text.length <= 50);
  if (cand.length < 2) return null;
  // The format whose width fits most candidate lines (ties: more lines first, TD1 needs three).
  let best: { format: MrzFormat; n: number } | null = null;
  for (const format of ['TD3', 'TD1', 'TD2'] as MrzFormat[]) {
    const w = WIDTHS[format];
    const n = cand.filter((l) => Math.abs(l.text.length - w) <= Math.max(2, w * 0.1)).length;
    if (n >= COUNTS[format] && (!best || n > best.n)) best = { format, n };
  }
  if (!best) return null;
  const w = WIDTHS[best.format];
  const kept = cand.filter((l) => Math.abs(l.text.length - w) <= Math.max(2, w * 0.1)).slice(-COUNTS[best.format]);
  return { format: best.format, lines: kept.map((l) => fit(l.text, w)), confidences: kept.map((l) => l.confidence) };
}

const CONFUSABLE: Record<string, string[]> = {
  '0': ['O', 'D', 'Q'], O: ['0', 'D', 'Q'], D: ['0', 'O'], Q: ['0', 'O'], '1': ['I', 'L', 'T'], I: ['1', 'L'], L: ['1', 'I'], T: ['1'],
  '5': ['S'], S: ['5'], '8': ['B'], B: ['8'], '2': ['Z'], Z: ['2'], '6': ['G'], G: ['6'], '4': ['A'], A: ['4'], '7': ['T'],
};

/**
 * Alphanumeric fields (document number, optional data) cannot be fixed by type: try each single
 * confusable swap and keep it only when exactly one swap makes the field's check digit and the
 * composite hold. Dates are digits only and were fixed by type already.
 */
function correctByCheckDigits(lines: string[], format: MrzFormat, extended: boolean): { lines: string[]; changes: number } {
  const parsed = parseMrz(lines, { extended });
  if (!parsed || parsed.checkDigitsValid) return { lines, changes: 0 };
  // [line, start, end] of the alphanumeric fields whose check digit is at `end` (or a long number's).
  const fields: [number, number, number][] = format === 'TD1' ? [[0, 5, 14], [0, 15, 29], [1, 18, 29]] : format === 'TD3' ? [[1, 0, 9], [1, 28, 42]] : [[1, 0, 9], [1, 28, 35]];
  const good: string[][] = [];
  for (const [li, a, b] of fields) {
    for (let i = a; i < b; i++) {
      for (const alt of CONFUSABLE[lines[li]![i]!] ?? []) {
        const trial = lines.map((l, k) => (k === li ? l.slice(0, i) + alt + l.slice(i + 1) : l));
        const p = parseMrz(trial, { extended });
        if (p && p.checkDigitsValid && p.structureErrors.length === 0) good.push(trial);
      }
    }
  }
  return good.length === 1 ? { lines: good[0]!, changes: 1 } : { lines, changes: 0 };
}

export interface Interpreted { format: MrzFormat; lines: string[]; rawLines: string[]; parsed: ParsedMrz | null; confidences: number[]; corrections: number; valid: boolean; checksOk: number }

/**
 * The characters no check digit covers: the name line (and TD1's document code and state). A
 * type-based repair there (8→B, 0→O) is a guess, not a proof: issuers print digits in names (a
 * Russian internal passport's `IM8REK`), so a read is confirmed only if some read printed these
 * characters as they stand, without repair.
 */
function uncovered(lines: string[], format: MrzFormat): string {
  return format === 'TD1' ? `${lines[0]!.slice(0, 5)}|${lines[2]}` : lines[0]!;
}

export function interpret(raw: OcrLine[], plausible?: (p: ParsedMrz) => boolean): Interpreted | null {
  const got = mrzLinesFromOcr(raw);
  if (!got) return null;
  const typed = repairLines(got.lines, got.format);
  let corrections = typed.reduce((n, l, i) => n + [...l].filter((c, k) => c !== got.lines[i]![k]).length, 0);
  const fixed = correctByCheckDigits(typed, got.format, true);
  corrections += fixed.changes;
  const parsed = parseMrz(fixed.lines, { extended: true });
  const valid = !!parsed && parsed.checkDigitsValid && parsed.structureErrors.length === 0 && /^[A-Z]/.test(parsed.documentCode) && (!plausible || plausible(parsed));
  return { format: got.format, lines: fixed.lines, rawLines: got.lines, parsed, confidences: got.confidences, corrections, valid, checksOk: parsed ? parsed.checks.filter((c) => c.ok).length : 0 };
}

export type Raw = { data: Buffer; width: number; height: number; channels: 1 | 3 };

/**
 * Crops one band out of the image turned by the band's angle and scales it to `lineHeightPx`
 * lines for tesseract ('binary' and 'small' are the independent second reads). Turned images are
 * cached per angle, so several bands at one angle cost one rotation.
 */
export function bandCropper(img: Raw, lineHeightPx: number): (b: MrzBand, flipped: boolean, variant: 'grey' | 'binary' | 'small') => Promise<Buffer> {
  const turned = new Map<number, Promise<{ data: Buffer; width: number; height: number }>>();
  const turnedImage = (angle: number) => {
    if (!turned.has(angle)) {
      turned.set(angle, sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } })
        .greyscale().rotate(angle, { background: { r: 255, g: 255, b: 255 } }).extractChannel(0).raw().toBuffer({ resolveWithObject: true })
        .then(({ data, info }) => ({ data, width: info.width, height: info.height })));
    }
    return turned.get(angle)!;
  };
  return async (b, flipped, variant) => {
    const t = await turnedImage(b.angle);
    const left = Math.min(b.left, t.width - 1), top = Math.min(b.top, t.height - 1);
    const width = Math.max(1, Math.min(b.width, t.width - left)), height = Math.max(1, Math.min(b.height, t.height - top));
    const f = Math.max(0.3, Math.min(4, (variant === 'small' ? 0.7 : 1) * lineHeightPx / b.lineHeight));
    let s = sharp(t.data, { raw: { width: t.width, height: t.height, channels: 1 } }).extract({ left, top, width, height });
    if (flipped) s = s.rotate(180);
    s = s.resize(Math.max(8, Math.round(width * f)), Math.max(8, Math.round(height * f)), { kernel: f > 1 ? 'cubic' : 'lanczos3' }).normalise();
    if (variant === 'binary') s = s.sharpen({ sigma: 1 }).threshold(128);
    return s.png().toBuffer();
  };
}


export async function scanMrz(img: Raw, readers: ScanReaders, opts: ScanOptions): Promise<MrzScan> {
  const attempts: ScanAttempt[] = [];
  let bands = await locateMrzBands(img, { workSide: opts.workSide, maxBands: opts.maxBands, lines: opts.lines });
  const crop = bandCropper(img, opts.lineHeightPx);
  let reads = 0;
  const budget = opts.maxReads ?? Infinity;
  const tess = async (png: Buffer) => {
    reads++;
    return (await readers.tesseract.recognize(png, { user_defined_dpi: '300' }, opts.timeoutMs)).lines;
  };

  let best: { r: Interpreted; band: MrzBand; flipped: boolean } | null = null;
  const tryBand = async (bi: number, band: MrzBand): Promise<MrzScan | null> => {
    let b = band;
    for (const flipped of [false, true]) {
      if (reads >= budget) break;
      const t0 = Date.now();
      const png = await crop(b, flipped, 'grey');
      if (process.env.MRZ_DEBUG_DIR) await sharp(png).toFile(`${process.env.MRZ_DEBUG_DIR}/crop-${bi}-${flipped ? 1 : 0}.png`);
      const raw = await tess(png);
      let r = interpret(raw, opts.plausible);
      // Two lines of TD1 width: the band missed the third line (TD1 lines can sit far apart). Grow it.
      if (!r && raw.filter((l) => Math.abs(norm(l.text).length - 30) <= 3).length === 2) {
        const grown = { ...b, top: Math.max(0, Math.round(b.top - 1.6 * b.lineHeight)), height: Math.round(b.height + 3.2 * b.lineHeight) };
        r = interpret(await tess(await crop(grown, flipped, 'grey')), opts.plausible);
        if (r) b = grown;
      }
      attempts.push({ band: bi, flipped, source: 'tesseract:grey', lines: r?.lines ?? null, checksOk: r?.checksOk ?? 0, checks: r?.parsed?.checks.length ?? 0, ms: Date.now() - t0 });
      if (r && (!best || r.checksOk + (r.parsed ? 0.5 : 0) > best.r.checksOk + (best.r.parsed ? 0.5 : 0))) best = { r, band: b, flipped };
      if (r?.valid) return confirm(bi, b, flipped, r);
      // One check digit off with a sound structure: if a second read prints the same lines, the
      // document itself says so (a misprinted check digit), and other bands will not change it.
      if (r?.parsed && r.parsed.structureErrors.length === 0 && r.checksOk === r.parsed.checks.length - 1) {
        const again = await confirm(bi, b, flipped, r);
        if (again.nameConfirmed) return { ...again, valid: false, reason: 'mrz_check_digits_failed' };
      }
      // A read with most check digits right was the right way up; turning it will not help.
      if (r?.parsed && r.checksOk >= r.parsed.checks.length / 2) break;
    }
    return null;
  };

  /** A second, independent read must give the same name line; else the read is not `valid`. */
  const confirm = async (bi: number, b: MrzBand, flipped: boolean, r: Interpreted): Promise<MrzScan> => {
    const nameLine = NAME_LINE[r.format];
    // Whole-MRZ agreement, not only the name line: two offsetting misreads can satisfy a check
    // digit (seen on a real Czech specimen: 9→2 and 1→I in the personal number).
    let confirmed = false;
    const asRead = (x: Interpreted) => uncovered(x.rawLines, x.format) === uncovered(r.lines, r.format);
    for (const variant of ['binary', 'small'] as const) {
      // A valid read always gets one confirmation, whatever the budget.
      if (variant === 'small' && reads >= budget) break;
      const t0 = Date.now();
      const r2 = interpret(await tess(await crop(b, flipped, variant)), opts.plausible);
      attempts.push({ band: bi, flipped, source: `tesseract:${variant}`, lines: r2?.lines ?? null, checksOk: r2?.checksOk ?? 0, checks: r2?.parsed?.checks.length ?? 0, ms: Date.now() - t0 });
      confirmed = !!r2 && r2.format === r.format && r2.lines.every((l, k) => l === r.lines[k]) && r2.lines[nameLine] === r.lines[nameLine] && (asRead(r) || asRead(r2));
      if (confirmed) break;
    }
    const lineConfidence = r.confidences;
    const conf = Math.min(...lineConfidence);
    return {
      parsed: r.parsed, valid: confirmed, reason: confirmed ? undefined : 'mrz_unreadable', lineConfidence,
      confidence: confirmed ? conf : conf / 2, nameConfirmed: confirmed, corrections: r.corrections,
      band: { ...strip(b), flipped }, attempts, bandsFound: bands.length,
    };
  };

  for (let i = 0; i < bands.length; i++) {
    const done = await tryBand(i, bands[i]!);
    if (done) return done;
  }
  // Nothing valid at the estimated text angle: the straight and quarter-turned frames.
  if (!best || !(best as { r: Interpreted }).r.valid) {
    const done = new Set(bands.map((b) => b.angle));
    const more = await locateMrzBands(img, { workSide: opts.workSide, maxBands: opts.maxBands, angles: [0, 90, -90].filter((a) => !done.has(a)), lines: opts.lines });
    const fresh = more.filter((m) => !bands.some((b) => b.angle === m.angle && Math.abs(b.left - m.left) < 20 && Math.abs(b.top - m.top) < 20)).slice(0, opts.maxBands);
    bands = [...bands, ...fresh];
    for (let i = bands.length - fresh.length; i < bands.length; i++) {
      const done = await tryBand(i, bands[i]!);
      if (done) return done;
    }
  }
  if (!best) return { parsed: null, valid: false, reason: bands.length ? 'mrz_unreadable' : 'mrz_not_found', lineConfidence: [], confidence: 0, nameConfirmed: false, corrections: 0, attempts, bandsFound: bands.length };
  const b = best as { r: Interpreted; band: MrzBand; flipped: boolean };
  return {
    parsed: b.r.parsed, valid: false, reason: b.r.parsed && b.r.parsed.structureErrors.length === 0 ? 'mrz_check_digits_failed' : 'mrz_unreadable',
    lineConfidence: b.r.confidences, confidence: Math.min(...b.r.confidences) / 2, nameConfirmed: false, corrections: b.r.corrections,
    band: { ...strip(b.band), flipped: b.flipped }, attempts, bandsFound: bands.length,
  };
}

function strip(b: MrzBand): Omit<MrzBand, 'score'> {
  const { score: _score, ...rest } = b;
  return rest;
}

