import { checkDigit } from './check-digit.js';

/**
 * Builds MRZ lines from document data (ICAO 9303 Parts 3–6). The corpus renders with it and the
 * reader uses the same transliteration to compare applicant names with MRZ names.
 */

/**
 * ICAO 9303 Part 3 §6 Table A: Latin letters with a fixed MRZ spelling. Letters that are a base
 * letter plus diacritics (É, Ş, Ž, Ő) need no entry: they fold to the base letter below. These do
 * not decompose that way (Ł, Ø, Đ) or are spelt with two letters.
 */
const LATIN: Record<string, string> = {
  À: 'A', Á: 'A', Â: 'A', Ã: 'A', Ä: 'AE', Å: 'AA', Æ: 'AE', Ç: 'C', È: 'E', É: 'E', Ê: 'E', Ë: 'E',
  Ì: 'I', Í: 'I', Î: 'I', Ï: 'I', Ð: 'D', Ñ: 'N', Ò: 'O', Ó: 'O', Ô: 'O', Õ: 'O', Ö: 'OE', Ø: 'OE',
  Ù: 'U', Ú: 'U', Û: 'U', Ü: 'UE', Ý: 'Y', Þ: 'TH', ß: 'SS', ẞ: 'SS', Œ: 'OE', Ł: 'L', Đ: 'D',
  Ħ: 'H', Ŧ: 'T', Ŋ: 'N', Ŀ: 'L', 'Ĳ': 'IJ',
};

/**
 * ICAO 9303 Part 3 §6 Table B: Cyrillic. Russian foreign passports have spelt names this way since
 * 2014; other states using Cyrillic have national schemes (Ukraine: Г H, И Y), which the name
 * comparison meets as a near spelling, not an exact one.
 */
const CYRILLIC: Record<string, string> = {
  А: 'A', Б: 'B', В: 'V', Г: 'G', Ґ: 'G', Д: 'D', Ђ: 'D', Ѓ: 'G', Е: 'E', Ё: 'E', Є: 'IE', Ж: 'ZH', З: 'Z',
  Ѕ: 'DZ', И: 'I', І: 'I', Ї: 'I', Й: 'I', Ј: 'J', К: 'K', Л: 'L', Љ: 'LJ', М: 'M', Н: 'N', Њ: 'NJ', О: 'O',
  П: 'P', Р: 'R', С: 'S', Т: 'T', Ћ: 'C', Ќ: 'K', У: 'U', Ў: 'U', Ф: 'F', Х: 'KH', Ц: 'TS', Ч: 'CH', Џ: 'DZ',
  Ш: 'SH', Щ: 'SHCH', Ъ: 'IE', Ы: 'Y', Ь: '', Э: 'E', Ю: 'IU', Я: 'IA',
};

/**
 * The Russian internal passport's MRZ spelling of Cyrillic (the MVD's "modernised Clair" encoding,
 * Order No. 773 of 16 November 2020, appendix 24; see repair.ts): one Latin letter or digit per
 * Cyrillic letter, so it decodes back exactly. `IM8REK` is ИМЯРЕК.
 */
const RU_INTERNAL: Record<string, string> = {
  A: 'А', B: 'Б', V: 'В', G: 'Г', D: 'Д', E: 'Е', 2: 'Ё', J: 'Ж', Z: 'З', I: 'И', Q: 'Й', K: 'К', L: 'Л',
  M: 'М', N: 'Н', O: 'О', P: 'П', R: 'Р', S: 'С', T: 'Т', U: 'У', F: 'Ф', H: 'Х', C: 'Ц', 3: 'Ч', 4: 'Ш',
  W: 'Щ', X: 'Ъ', Y: 'Ы', 9: 'Ь', 6: 'Э', 7: 'Ю', 8: 'Я',
};

/** Whether a document writes its MRZ names in that encoding: the Russian internal passport (`PN`, `RUS`). */
export function usesRussianInternalNames(documentCode: string | undefined, issuingState: string | undefined): boolean {
  return documentCode === 'PN' && issuingState === 'RUS';
}

/** The digits that encoding uses for letters (Ё 2, Ч 3, Ш 4, Э 6, Ю 7, Я 8, Ь 9); 0, 1 and 5 are never letters there. */
export const RUSSIAN_NAME_DIGITS: ReadonlySet<string> = new Set(Object.keys(RU_INTERNAL).filter((c) => /\d/.test(c)));

/** A name as a Russian internal passport's MRZ prints it, back in Cyrillic (fillers and spaces kept). */
export function decodeRussianInternalName(mrzName: string): string {
  return Array.from(mrzName.toUpperCase(), (c) => RU_INTERNAL[c] ?? c).join('');
}

/** ICAO Part 3 §6 Tables A and B plus §4.6 punctuation: apostrophes vanish, hyphens and spaces become `<`. */
export function transliterate(name: string): string {
  return name
    .toUpperCase()
    .replace(/['’`]/g, '')
    .split('')
    .map((c) => LATIN[c] ?? CYRILLIC[c] ?? c)
    .join('')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[-\s,]+/g, '<')
    .replace(/[^A-Z<]/g, '');
}

/** Primary `<<` secondary, padded; truncates the primary identifier first (Part 4 §4.2.3). */
export function nameField(surnames: string, givenNames: string, width: number): string {
  let primary = transliterate(surnames);
  let secondary = transliterate(givenNames);
  let field = secondary ? `${primary}<<${secondary}` : primary;
  if (field.length > width) {
    // Keep `<<` plus at least the first secondary letter; the last position then signals truncation.
    primary = primary.slice(0, Math.min(primary.length, width - 3));
    secondary = secondary.slice(0, width - 2 - primary.length);
    field = `${primary}<<${secondary}`;
  }
  return field.padEnd(width, '<').slice(0, width);
}

export function pad(text: string, width: number): string {
  return text.padEnd(width, '<').slice(0, width);
}

/** `YYYY-MM-DD` → `YYMMDD`. */
export function mrzDate(iso: string): string {
  return iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10);
}

export interface MrzData {
  documentCode: string; // two characters, e.g. `P<`, `ID`
  issuingState: string;
  documentNumber: string;
  nationality: string;
  birthDate: string; // YYYY-MM-DD
  sex: string; // one character as printed in the MRZ (ICAO M/F/<, INE H/M)
  expiryDate: string;
  surnames: string;
  givenNames: string;
  /** TD3 personal number (14) or TD1 optional data; placed verbatim. */
  optional1?: string;
  /** TD1 line 2 optional data (11 characters). */
  optional2?: string;
}

export function buildTd3(d: MrzData): [string, string] {
  const line1 = pad(d.documentCode, 2) + d.issuingState + nameField(d.surnames, d.givenNames, 39);
  const number = pad(d.documentNumber, 9);
  const personal = pad(d.optional1 ?? '', 14);
  const personalCd = /^<+$/.test(personal) ? '<' : checkDigit(personal);
  const dob = mrzDate(d.birthDate);
  const exp = mrzDate(d.expiryDate);
  const body = number + checkDigit(number) + d.nationality + dob + checkDigit(dob) + d.sex + exp + checkDigit(exp) + personal + personalCd;
  const composite = checkDigit(body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 43));
  return [line1, body + composite];
}

/** TD1 with the long-number rule (Part 5 note j) for numbers over 9 characters. */
export function buildTd1(d: MrzData): [string, string, string] {
  let numberField: string;
  let optional: string;
  if (d.documentNumber.length > 9) {
    const head = d.documentNumber.slice(0, 9);
    const tail = d.documentNumber.slice(9);
    numberField = head + '<';
    optional = pad(tail + checkDigit(d.documentNumber) + (d.optional1 ?? ''), 15);
  } else {
    const number = pad(d.documentNumber, 9);
    numberField = number + checkDigit(number);
    optional = pad(d.optional1 ?? '', 15);
  }
  const line1 = pad(d.documentCode, 2) + d.issuingState + numberField + optional;
  const dob = mrzDate(d.birthDate);
  const exp = mrzDate(d.expiryDate);
  const opt2 = pad(d.optional2 ?? '', 11);
  const head2 = dob + checkDigit(dob) + d.sex + exp + checkDigit(exp) + d.nationality + opt2;
  const composite = checkDigit(line1.slice(5, 30) + head2.slice(0, 7) + head2.slice(8, 15) + head2.slice(18, 29));
  const line3 = nameField(d.surnames, d.givenNames, 30);
  return [line1, head2 + composite, line3];
}
