import sharp from 'sharp';
import type { RawImage } from '../image/warp.js';
import { similarity } from '../compare.js';
import { curpCheckDigit } from '../mrz/check-digit.js';
import type { OcrWorker } from '../ocr/workers.js';
import type { Side, TextZone } from '../templates/types.js';

// Letter/digit positions of the CURP and the Clave de Elector (DOCUMENT_FACTS §2.3, §3).
const CURP_SHAPE = 'AAAA999999AAAAAA*9';
const CLAVE_SHAPE = 'AAAAAA99999999A999';
const TO_DIGIT: Record<string, string> = { O: '0', Q: '0', D: '0', I: '1', L: '1', Z: '2', S: '5', B: '8', G: '6' };
const TO_LETTER: Record<string, string> = { '0': 'O', '1': 'I', '2': 'Z', '5': 'S', '8': 'B', '6': 'G' };
function repairShape(text: string, shape: string): string {
  if (text.length !== shape.length) return text;
  return Array.from(text, (c, i) => (shape[i] === '9' ? TO_DIGIT[c] ?? c : shape[i] === 'A' ? TO_LETTER[c] ?? c : c)).join('');
}

/**
 * The English model sometimes doubles a zero as "O0". A CURP carries a check digit, so dropping
 * one of a doubled O/0 pair, when exactly one such deletion gives a valid CURP, is safe to take.
 */
export function repairCurp(raw: string): string {
  const direct = repairShape(raw, CURP_SHAPE);
  if (raw.length !== CURP_SHAPE.length + 1) return direct;
  const valid = new Set<string>();
  const round = (c?: string) => c === 'O' || c === '0';
  for (let i = 0; i < raw.length; i++) {
    if (!round(raw[i]) || !(round(raw[i - 1]) || round(raw[i + 1]))) continue;
    const cand = repairShape(raw.slice(0, i) + raw.slice(i + 1), CURP_SHAPE);
    // Position 17 is a digit for births before 2000 (DOCUMENT_FACTS §3); YY ≥ 30 can only be 19YY.
    const centuryOk = Number(cand.slice(4, 6)) < 30 || /\d/.test(cand[16] ?? '');
    if (/^[A-Z]{4}\d{6}[HMX][A-Z]{5}[0-9A-Z]\d$/.test(cand) && centuryOk && curpCheckDigit(cand.slice(0, 17)) === cand[17]) valid.add(cand);
  }
  return valid.size === 1 ? [...valid][0]! : direct;
}

/** `trusted`: confident enough, or shaped exactly like its field, to assert a mismatch with. */
export interface VisualField { text: string; confidence: number; trusted: boolean }

const DATE_CHARS = '0123456789/-. ';
const VALUE_LINE_PX = 44;
const CODE_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const NAME_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZÁÉÍÓÚÂÊÔÃÕÇÀÜÑ '-";

const WELL_FORMED: Partial<Record<string, RegExp>> = {
  sex: /^[MFHX]$/, document_number: /^[A-Z0-9]{6,13}$/, curp: /^[A-Z]{4}\d{6}[A-Z0-9]{7}\d$/, clave_elector: /^[A-Z]{6}\d{8}[HM]\d{3}$/,
  date_of_birth: /^\d{2}\/\d{2}\/\d{4}$/, expiry_date: /^\d{2}\/\d{2}\/\d{4}$/, seccion: /^\d{4}$/, vigencia: /^(\d{4} - )?\d{4}$/,
};

/** A whitelist per value kind: fewer confusions, and names keep their accents. */
function whitelistFor(z: TextZone): string {
  if (z.format?.startsWith('date') || z.format === 'vigencia_range' || z.field === 'seccion') return DATE_CHARS;
  // Without a whitelist the English model reads the bold J as `)`; with one its confidence drops
  // to 0 on some correct reads, so well-formedness (below) decides trust for code fields.
  if (z.field === 'document_number' || z.field === 'curp' || z.field === 'clave_elector') return CODE_CHARS;
  if (z.field === 'sex') return 'MFHX';
  // An empty whitelist does not reset tesseract's previous one: names get an explicit alphabet.
  return NAME_CHARS;
}

/** Reads each value box of the template on one rectified side, one text line per box. */
export async function readVisualZone(side: RawImage, sideName: Side, zones: TextZone[], worker: OcrWorker, timeoutMs: number, number?: { pattern: RegExp; shape?: string }): Promise<Record<string, VisualField>> {
  const out: Record<string, VisualField> = {};
  const base = sharp(side.data, { raw: { width: side.width, height: side.height, channels: 3 } });
  const png = await base.png().toBuffer();
  const captions = zones.flatMap((z) => z.label.split('/').map((part) => part.trim().toUpperCase())).filter(Boolean);
  for (const z of zones.filter((zz) => zz.side === sideName && zz.field !== 'nationality')) {
    const left = Math.max(0, Math.round((z.box.x - 0.01) * side.width));
    const top = Math.max(0, Math.round((z.box.y - z.box.h * 0.1) * side.height));
    // A one-letter value (sex) gets a narrow box: a wide one invites stray marks to be read as letters.
    const boxW = z.field === 'sex' ? Math.min(z.box.w, 0.12) : z.box.w;
    const width = Math.min(side.width - left, Math.round((boxW + 0.02) * side.width));
    const height = Math.min(side.height - top, Math.round(z.box.h * 1.2 * side.height));
    // Tesseract's time grows with pixels, not with text: a value line needs no more than ~40 px.
    const scale = Math.min(1, VALUE_LINE_PX / height);
    const crop = await sharp(png).extract({ left, top, width, height }).resize(Math.round(width * scale), Math.round(height * scale)).greyscale().normalise().png().toBuffer();
    const res = await worker.recognize(crop, { tessedit_pageseg_mode: z.field === 'sex' ? '8' : '7', tessedit_char_whitelist: whitelistFor(z), user_defined_dpi: '300' }, timeoutMs, { lines: false });
    let text = res.text.replace(/\s+/g, ' ').trim();
    // Single-letter boxes come back doubled ("MM") now and then.
    if (z.field === 'sex') text = text.replace(/^([MFHX])\1+$/, '$1');
    if (z.field === 'curp') text = repairCurp(text.replace(/\s/g, ''));
    if (z.field === 'document_number' && number?.shape) text = repairShape(text.replace(/\s/g, ''), number.shape);
    if (z.field === 'clave_elector') text = repairShape(text.replace(/\s/g, ''), CLAVE_SHAPE);
    const wellFormed = (WELL_FORMED[z.field]?.test(text) ?? false) && (z.field !== 'document_number' || !number || number.pattern.test(text));
    // Fields with a fixed shape are trusted on their shape (whitelisted reads report confidence 0 when
    // right); free text only on a high confidence, since a label caught in a shifted box reads as a name.
    const shaped = z.field in WELL_FORMED;
    // A shifted box can catch a caption: a value that reads like one of the template's labels is no value.
    const caption = captions.some((c) => similarity(c, text.toUpperCase()) >= 0.75);
    // Digit-only reads keep a meaningful confidence under their whitelist (8 for 5 shows as < 0.7).
    const digitsOnly = whitelistFor(z) === DATE_CHARS;
    const confident = res.confidence >= (digitsOnly ? 70 : 80);
    out[z.field] = { text, confidence: res.confidence / 100, trusted: !!text && !caption && (shaped ? wellFormed && (!digitsOnly || confident) : confident) };
  }
  return out;
}

export interface CaptionRead { expected: string; text: string; score: number; matched: boolean }

const fold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toUpperCase().replace(/[^A-Z0-9 ]/g, ' ').replace(/\s+/g, ' ').trim();

/**
 * 2.x: reads each value's printed caption (the strip just above its box) with the document's own
 * language model (Debian tesseract-ocr-por / -spa) and checks it against the template's label, so
 * a value is known to sit under the caption it claims, not only at the position the template
 * assumes. A bilingual label ("APELIDO / SURNAME") matches on either part or the whole.
 */
export async function readCaptions(side: RawImage, sideName: Side, zones: TextZone[], worker: OcrWorker, timeoutMs: number): Promise<Record<string, CaptionRead>> {
  const out: Record<string, CaptionRead> = {};
  const png = await sharp(side.data, { raw: { width: side.width, height: side.height, channels: 3 } }).png().toBuffer();
  for (const z of zones.filter((zz) => zz.side === sideName && zz.label)) {
    const left = Math.max(0, Math.round((z.box.x - 0.01) * side.width));
    const top = Math.max(0, Math.round((z.box.y - z.box.h * 0.6) * side.height));
    const width = Math.min(side.width - left, Math.round((z.box.w + 0.02) * side.width));
    const height = Math.min(side.height - top, Math.max(4, Math.round(z.box.h * 0.65 * side.height)));
    const scale = Math.min(2, 32 / height);
    const crop = await sharp(png).extract({ left, top, width, height }).resize(Math.round(width * scale), Math.round(height * scale)).greyscale().normalise().png().toBuffer();
    // An explicit alphabet: a whitelist left by an earlier job would otherwise stay in force.
    const res = await worker.recognize(crop, { tessedit_pageseg_mode: '7', tessedit_char_whitelist: "ABCDEFGHIJKLMNOPQRSTUVWXYZÁÉÍÓÚÂÊÔÃÕÇÀÜÑº./ '-", user_defined_dpi: '300' }, timeoutMs, { lines: false });
    const text = fold(res.text);
    const parts = [z.label, ...z.label.split('/')].map(fold).filter(Boolean);
    // The strip may also catch neighbouring print after the caption: the caption is its start.
    const compact = text.replace(/ /g, '');
    const score = Math.max(0, ...parts.map((p) => Math.max(similarity(p, text), similarity(p.replace(/ /g, ''), compact.slice(0, p.replace(/ /g, '').length)))));
    out[z.field] = { expected: z.label, text: res.text.replace(/\s+/g, ' ').trim(), score: Math.round(score * 1000) / 1000, matched: score >= 0.7 };
  }
  return out;
}
