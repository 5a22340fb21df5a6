import { RUSSIAN_NAME_DIGITS, usesRussianInternalNames } from './encode.js';
import type { MrzFormat } from './parse.js';

/**
 * Which positions of each MRZ line hold digits only ('9'), letters only ('A'), letters or `<`
 * ('a'), or anything ('*'). OCR confuses O/0, I/1, S/5, B/8…; where the format allows only one
 * class, the confusable of the other class is mapped back. Check digits still decide validity.
 */
const SHAPES: Record<MrzFormat, string[]> = {
  TD3: ['Aa' + 'aaa' + 'a'.repeat(39), '*********9' + 'aaa' + '9999999' + 'a' + '9999999' + '*'.repeat(14) + '*9'],
  TD2: ['Aa' + 'aaa' + 'a'.repeat(31), '*********9' + 'aaa' + '9999999' + 'a' + '9999999' + '*'.repeat(7) + '9'],
  TD1: ['Aa' + 'aaa' + '*'.repeat(25), '9999999' + 'a' + '9999999' + 'aaa' + '*'.repeat(11) + '9', 'a'.repeat(30)],
};

/**
 * 3.24 (`frenchId`): the French national identity card of 1988–2021 prints two lines of 36 like
 * TD2, but not TD2's fields (parse.ts, `FR-ID`): line 1 is `ID`, `FRA`, the surname (25) and the
 * issuing department and office (6, letters and digits: `2A` is Corse-du-Sud); line 2 the card
 * number (12: year and month of issue, department, a 5-digit sequence) and its check digit, the
 * given names (14), the birth date and its check digit, the sex and the composite check digit.
 * Typed as TD2, its given names were "repaired" into digits (TD2's dates) and its number's
 * department letters into digits.
 */
const FRENCH_ID = ['Aa' + 'aaa' + 'a'.repeat(25) + '*'.repeat(6), '9999' + '***' + '99999' + '9' + 'a'.repeat(14) + '999999' + '9' + 'a' + '9'];

/** National layouts the type repair knows (3.22 `russianNames`, 3.24 `frenchId`), as the scan settings name them. */
export interface NationalFormats { russianNames?: boolean; frenchId?: boolean }

/** The French card's lines: two of 36 whose first five characters, typed as letters, read `IDFRA`. */
function isFrenchId(lines: string[], format: MrzFormat): boolean {
  if (format !== 'TD2' || lines.length !== 2) return false;
  return Array.from(lines[0]!.slice(0, 5), (c) => TO_LETTER[c] ?? c).join('') === 'IDFRA';
}

function shapesOf(lines: string[], format: MrzFormat, national: NationalFormats): string[] {
  return national.frenchId && isFrenchId(lines, format) ? FRENCH_ID : SHAPES[format];
}

/** Whether position `k` of line `li` takes letters and digits alike (document number, optional data). */
export function eitherClassAt(format: MrzFormat, li: number, k: number, lines: string[] = [], national: NationalFormats = {}): boolean {
  return shapesOf(lines, format, national)[li]?.[k] === '*';
}

const TO_DIGIT: Record<string, string> = { O: '0', Q: '0', D: '0', U: '0', I: '1', L: '1', T: '1', Z: '2', S: '5', B: '8', G: '6' };
const TO_LETTER: Record<string, string> = { '0': 'O', '1': 'I', '2': 'Z', '5': 'S', '8': 'B', '6': 'G' };

export function repairLines(lines: string[], format: MrzFormat, national: NationalFormats = {}): string[] {
  const shape = shapesOf(lines, format, national);
  const typed = lines.map((line, li) => {
    const s = shape[li] ?? '';
    return Array.from(line, (c, i) => {
      const k = s[i];
      if (k === '9') return TO_DIGIT[c] ?? c;
      if (k === 'A' || k === 'a') return TO_LETTER[c] ?? c;
      return c;
    }).join('');
  });
  if (!national.russianNames || !isRussianInternal(typed, format)) return typed;
  // The name field keeps the digits that stand for letters as read; the others (0, 1, 5) are
  // never part of the encoding, so they are still the letters O, I, S misread.
  const name = Array.from(lines[0]!, (c, i) => (i >= 5 && RUSSIAN_NAME_DIGITS.has(c) ? c : typed[0]![i]!)).join('');
  return [name, ...typed.slice(1)];
}

/**
 * 3.22 (`russianNames`): the Russian internal passport (TD3, document code `PN`, issuer `RUS`)
 * writes the holder's name in the Interior Ministry's "modernised Clair" encoding, in which digits
 * stand for Cyrillic letters without a one-letter Latin equivalent (`RUSSIAN_NAME_DIGITS`, encode.ts;
 * Order of the MVD of Russia No. 773 of 16 November 2020, appendix 24; attested in the published
 * samples `IM8REK` = ИМЯРЕК, `ALEKSANDROVI3`, `ZDRIL7K`, `ANATOL9EVI3`). There the type repair's
 * 8→B, 2→Z, 6→G would turn a printed letter into another one.
 */
const isRussianInternal = (typed: string[], format: MrzFormat) => format === 'TD3' && usesRussianInternalNames(typed[0]!.slice(0, 2), typed[0]!.slice(2, 5));

/** The kept lines' OCR confidence (0..1), for the read's score. */
export function keptLineConfidence(raw: { text: string; confidence: number }[], format: MrzFormat): number {
  const { width, count } = shape(format);
  const kept = raw.filter((l) => fitsWidth(normalizeChars(l.text), width)).slice(-count);
  return kept.length ? Math.min(...kept.map((l) => l.confidence)) / 100 : 0;
}

const shape = (format: MrzFormat) => ({ width: format === 'TD1' ? 30 : format === 'TD2' ? 36 : 44, count: format === 'TD1' ? 3 : 2 });
const normalizeChars = (l: string) => l.toUpperCase().replace(/[«‹]/g, '<').replace(/\s+/g, '').replace(/[^A-Z0-9<]/g, '');
const fitsWidth = (l: string, width: number) => l.length >= width * 0.8 && l.length <= width * 1.15;

/** OCR output to candidate MRZ lines: keep the MRZ alphabet, fit the expected length. */
export function cleanOcrLines(raw: string[], format: MrzFormat): string[] | null {
  const { width, count } = shape(format);
  const cleaned = raw.map(normalizeChars).filter((l) => fitsWidth(l, width));
  if (cleaned.length < count) return null;
  const lines = cleaned.slice(-count).map((l) => {
    if (l.length === width) return l;
    // Fillers are where OCR most often drops or adds a `<`: fix the run of fillers nearest the end.
    if (l.length > width) return l.replace(/<{2,}(?=[^<]*$)/, (m) => m.slice(0, Math.max(1, m.length - (l.length - width)))).slice(0, width).padEnd(width, '<');
    const m = /<+(?=[^<]{0,3}$)/.exec(l);
    if (m) return l.slice(0, m.index) + '<'.repeat(m[0].length + width - l.length) + l.slice(m.index + m[0].length);
    return l.padEnd(width, '<');
  });
  return lines.every((l) => l.length === width) ? lines : null;
}
