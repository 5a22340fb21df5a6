import sharp from 'sharp';
import type { RawImage } from '../image/warp.js';
import { mrzReadParams, type OcrWorker } from '../ocr/workers.js';
import type { GlyphReader } from './glyphs.js';
import type { RelBox } from '../templates/types.js';
import { parseMrz, type MrzFormat, type ParsedMrz } from './parse.js';
import { cleanOcrLines, keptLineConfidence, repairLines } from './repair.js';

export interface MrzAttempt { variant: string; lines: string[] | null; valid: boolean; confidence: number; ms: number; margin?: number }

export interface MrzRead {
  parsed: ParsedMrz | null;
  /** Check digits pass and the structure is sound. */
  valid: boolean;
  /** Two preprocessing variants produced the same lines: a read we trust even when it fails its checks. */
  stable: boolean;
  /** Which reader produced `parsed`, and whether an independent reader agreed on the name line. */
  reader: 'glyph' | 'tesseract' | 'none';
  nameCrossChecked: boolean;
  /** Both readers passed the check digits but read different names: a soft signal, never a pass silently. */
  nameConflict?: boolean;
  /** The only valid read came with a low OCR confidence: fields outside the check digits may be wrong. */
  lowConfidence?: boolean;
  confidence: number;
  attempts: MrzAttempt[];
}

type Img = ReturnType<typeof sharp>;
type Variant = { name: string; apply: (img: Img) => Img };

/** The cascade: cheap first, then what fixes the failures we measured (blur, noise, uneven light). */
const VARIANTS: Variant[] = [
  { name: 'grey', apply: (i) => i.greyscale().normalise() },
  { name: 'otsu', apply: (i) => i.greyscale().normalise().threshold(140) },
  { name: 'sharpen', apply: (i) => i.greyscale().normalise().sharpen({ sigma: 1.2 }) },
  { name: 'median', apply: (i) => i.greyscale().median(3).normalise() },
  { name: 'upscale', apply: (i) => i.greyscale().normalise().resize({ width: 2000 }).sharpen() },
  { name: 'clahe', apply: (i) => i.greyscale().clahe({ width: 64, height: 64 }).normalise() },
];

function rawToSharp(img: RawImage): Img {
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels as 3 } });
}

/** Residual skew of the band from the row-profile sharpness: text lines give the peakiest profile when level. */
async function estimateSkew(band: Buffer): Promise<number> {
  const { data, info } = await sharp(band).greyscale().resize({ width: 600 }).threshold(128).negate().raw().toBuffer({ resolveWithObject: true });
  let bestAngle = 0, bestScore = -1;
  for (let a = -3; a <= 3.001; a += 0.5) {
    const t = Math.tan((a * Math.PI) / 180);
    const rows = new Float64Array(info.height * 2);
    for (let y = 0; y < info.height; y++) for (let x = 0; x < info.width; x++) {
      if (data[y * info.width + x]! > 0) {
        const r = Math.round(y - x * t + info.height / 2);
        if (r >= 0 && r < rows.length) rows[r]! += 1;
      }
    }
    let score = 0;
    for (let r = 1; r < rows.length; r++) score += (rows[r]! - rows[r - 1]!) ** 2;
    if (score > bestScore) { bestScore = score; bestAngle = a; }
  }
  return bestAngle;
}

/**
 * Reads the MRZ band, trying preprocessing variants until one read passes its check digits and
 * looks plausible for the template (`plausible` covers what no check digit does: document code,
 * states, sex letter). Without a passing variant the best read is returned, marked invalid.
 */
export interface MrzReaders { tesseract: OcrWorker; glyph?: GlyphReader }
export interface MrzReadOptions {
  timeoutMs: number;
  maxAttempts: number;
  plausible: (p: ParsedMrz) => boolean;
  pitchPx: number;
  /** Smallest glyph margin on the name line for the glyph read to stand without tesseract. */
  glyphNameMargin: number;
  /** Below this tesseract line confidence a valid read is kept only if nothing better turns up. */
  minConfidence: number;
  /** Letter (A) / digit (9) positions of the document number, when the template knows them well. */
  numberShape?: string;
  /** 3.14: no inverted second pass over unsure lines (`mrzReadParams`). */
  noInvert?: boolean;
}

const TO_DIGIT: Record<string, string> = { O: '0', Q: '0', D: '0', I: '1', L: '1', Z: '2', S: '5', B: '8', G: '6' };
const TO_LETTER: Record<string, string> = { '0': 'O', '1': 'I', '2': 'Z', '5': 'S', '8': 'B', '6': 'G' };

/**
 * Check digits cannot tell characters whose values differ by 10 (6/G, 1/B, 0/A…): where the
 * template fixes letters and digits in the number, put them back before checking.
 */
function repairNumber(lines: string[], format: MrzFormat, shape?: string): string[] {
  if (!shape || shape.length > 9) return lines;
  const [li, start] = format === 'TD1' ? [0, 5] : [1, 0];
  const line = lines[li]!;
  const field = Array.from(line.slice(start, start + shape.length), (c, i) => (shape[i] === '9' ? TO_DIGIT[c] ?? c : TO_LETTER[c] ?? c)).join('');
  return lines.map((l, i) => (i === li ? l.slice(0, start) + field + l.slice(start + shape.length) : l));
}

const NAME_LINE: Record<MrzFormat, number> = { TD1: 2, TD2: 0, TD3: 0 };

export async function readMrz(side: RawImage, band: RelBox, format: MrzFormat, readers: MrzReaders, opts: MrzReadOptions): Promise<MrzRead> {
  const pad = 0.02;
  const left = Math.max(0, Math.round((band.x - pad) * side.width));
  const top = Math.max(0, Math.round((band.y - pad) * side.height));
  const cropWidth = Math.min(side.width - left, Math.round((band.w + 2 * pad) * side.width));
  const cropHeight = Math.min(side.height - top, Math.round((band.h + 2 * pad) * side.height));
  let crop = await rawToSharp(side).extract({ left, top, width: cropWidth, height: cropHeight }).png().toBuffer();
  const skew = await estimateSkew(crop);
  if (skew !== 0) crop = await sharp(crop).rotate(skew, { background: '#ffffff' }).png().toBuffer();

  const attempts: MrzAttempt[] = [];
  const lineLength = format === 'TD1' ? 30 : format === 'TD2' ? 36 : 44;
  const count = format === 'TD1' ? 3 : 2;
  const nameLine = NAME_LINE[format];

  // Fast path: the fixed-pitch glyph reader. It stands alone only when its read passes every
  // check digit, looks plausible, and no name character was a close call.
  let glyphRead: { parsed: ParsedMrz; nameMargin: number; minScore: number } | null = null;
  let glyphLines: string | null = null;
  if (readers.glyph) {
    const t0 = Date.now();
    const g = await readers.glyph.read(await sharp(crop).greyscale().normalise().png().toBuffer(), count, lineLength, opts.pitchPx);
    const lines = g ? repairNumber(repairLines(g.lines.map((l) => l.text), format), format, opts.numberShape) : null;
    const parsed = lines ? parseMrz(lines) : null;
    const valid = !!parsed && parsed.checkDigitsValid && parsed.structureErrors.length === 0 && opts.plausible(parsed);
    const nameMargin = g ? Math.min(...g.lines[nameLine]!.margins) : 0;
    glyphLines = parsed ? parsed.lines.join('\n') : null;
    attempts.push({ variant: 'glyph', lines, valid, confidence: g ? g.minScore : 0, ms: Date.now() - t0, margin: nameMargin });
    if (valid) {
      glyphRead = { parsed: parsed!, nameMargin, minScore: g!.minScore };
      if (nameMargin >= opts.glyphNameMargin) {
        return { parsed, valid, stable: true, confidence: Math.min(1, 0.5 + g!.minScore / 2), attempts, reader: 'glyph', nameCrossChecked: false };
      }
    }
  }

  let lowValid: { parsed: ParsedMrz; confidence: number } | null = null;
  let best: { parsed: ParsedMrz; confidence: number; score: number } | null = null;
  const seen = new Map<string, number>();
  let stable = false;
  const readParams = mrzReadParams(opts);
  for (const v of VARIANTS.slice(0, opts.maxAttempts)) {
    const t0 = Date.now();
    const img = await v.apply(sharp(crop)).png().toBuffer();
    const ocr = await readers.tesseract.recognize(img, readParams, opts.timeoutMs);
    const cleaned = cleanOcrLines(ocr.lines.map((l) => l.text), format);
    const lines = cleaned ? repairNumber(repairLines(cleaned, format), format, opts.numberShape) : null;
    const parsed = lines ? parseMrz(lines) : null;
    const valid = !!parsed && parsed.checkDigitsValid && parsed.structureErrors.length === 0 && opts.plausible(parsed);
    const confidence = lines ? keptLineConfidence(ocr.lines, format) : 0;
    attempts.push({ variant: v.name, lines, valid, confidence, ms: Date.now() - t0 });
    if (parsed) {
      const key = parsed.lines.join('\n');
      seen.set(key, (seen.get(key) ?? 0) + 1);
      if (seen.get(key)! >= 2) stable = true;
      // Two independent readers printing the same failing lines: the document says so, retrying will not change it.
      if (!parsed.checkDigitsValid && key === glyphLines) {
        return { parsed, valid: false, stable: true, confidence, attempts, reader: 'tesseract', nameCrossChecked: true };
      }
      const score = parsed.checks.filter((c) => c.ok).length - parsed.structureErrors.length + (opts.plausible(parsed) ? 1 : 0) + confidence;
      if (!best || score > best.score) best = { parsed, confidence, score };
      if (valid && confidence < opts.minConfidence) {
        if (!lowValid || confidence > lowValid.confidence) lowValid = { parsed: parsed!, confidence };
        continue;
      }
      if (valid) {
        // Both readers valid: they must agree on the name line, which no check digit covers.
        const agree = glyphRead ? glyphRead.parsed.lines[nameLine] === parsed.lines[nameLine] : false;
        return { parsed, valid, stable: stable || confidence >= 0.8 || agree, confidence, attempts, reader: 'tesseract', nameCrossChecked: agree, nameConflict: !!glyphRead && !agree };
      }
    }
  }
  if (lowValid && !glyphRead) {
    return { parsed: lowValid.parsed, valid: true, stable: true, confidence: lowValid.confidence, attempts, reader: 'tesseract', nameCrossChecked: false, lowConfidence: true };
  }
  if (glyphRead) return { parsed: glyphRead.parsed, valid: true, stable: true, confidence: Math.min(1, 0.5 + glyphRead.minScore / 2) * 0.8, attempts, reader: 'glyph', nameCrossChecked: false };
  if (best) {
    const key = best.parsed.lines.join('\n');
    return { parsed: best.parsed, valid: false, stable: (seen.get(key) ?? 0) >= 2, confidence: best.confidence, attempts, reader: 'tesseract', nameCrossChecked: false };
  }
  return { parsed: null, valid: false, stable: false, confidence: 0, attempts, reader: 'none', nameCrossChecked: false };
}
