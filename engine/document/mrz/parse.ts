import { checkDigit } from './check-digit.js';

export type MrzFormat = 'TD1' | 'TD2' | 'TD3';

export interface MrzCheck {
  field: 'document_number' | 'birth_date' | 'expiry_date' | 'personal_number' | 'composite';
  ok: boolean;
}

/**
 * A long document number's tail in the optional field (Part 5 §4.2.4): the rest of the number, then
 * its check digit, then a filler or the field's end.
 */
export function longNumberTail(optional: string): { more: string; digit: string } | null {
  const m = /^([A-Z0-9]*?)(\d)(<|$)/.exec(optional);
  return m ? { more: m[1]!, digit: m[2]! } : null;
}

/** The document family: line geometry alone does not say which check digits exist. */
export type MrzKind = 'TD1' | 'TD2' | 'TD3' | 'MRV-A' | 'MRV-B' | 'FR-ID';

export interface ParseOptions {
  /**
   * ICAO 9303 families beyond TD1/TD2/TD3 and the national variants (document-engine 2.x): MRV-A
   * and MRV-B visas (no composite, no personal-number check), the French 2×36 ID card, TD2 long
   * numbers, an absent expiry written `<<<<<<`, and the TD1 long number with its check digit
   * computed either over the number alone or over the number with the `<` indicator. Off for
   * the 1.x settings, whose answers must not change.
   */
  extended?: boolean;
}

export interface ParsedMrz {
  format: MrzFormat;
  kind: MrzKind;
  lines: string[];
  documentCode: string;
  issuingState: string;
  documentNumber: string;
  nationality: string;
  birthDate: string; // YYMMDD as printed
  sex: string;
  expiryDate: string; // YYMMDD
  surnames: string;
  givenNames: string;
  /** TD1 L1 optional data after the number (long-number remainder removed), TD3 personal number. */
  optional1: string;
  optional2: string;
  checks: MrzCheck[];
  /** Every check digit and the composite hold. */
  checkDigitsValid: boolean;
  /** Characters outside A–Z 0–9 `<`, wrong line lengths, or impossible dates. */
  structureErrors: string[];
}

const FORMAT_BY_SHAPE: Record<string, MrzFormat> = { '3x30': 'TD1', '2x36': 'TD2', '2x44': 'TD3' };

export function detectFormat(lines: string[]): MrzFormat | null {
  return FORMAT_BY_SHAPE[`${lines.length}x${lines[0]?.length ?? 0}`] ?? null;
}

function splitName(field: string): { surnames: string; givenNames: string } {
  const trimmed = field.replace(/<+$/, '');
  const idx = trimmed.indexOf('<<');
  const primary = idx >= 0 ? trimmed.slice(0, idx) : trimmed;
  const secondary = idx >= 0 ? trimmed.slice(idx + 2) : '';
  return { surnames: primary.replace(/<+/g, ' ').trim(), givenNames: secondary.replace(/<+/g, ' ').trim() };
}

function validDate(yymmdd: string): boolean {
  if (!/^\d{6}$/.test(yymmdd)) return false;
  const mm = Number(yymmdd.slice(2, 4));
  const dd = Number(yymmdd.slice(4, 6));
  return mm >= 1 && mm <= 12 && dd >= 1 && dd <= 31;
}

/**
 * Our own parser rather than `mrz`'s strict one: INE cards write sex as Spanish H/M, specimens use
 * `UTO`, and we need the TD1 long-number rule; `mrz` rejects or misreads all three. The sex letter
 * and the issuing state are judged by the template, not here.
 */
export function parseMrz(rawLines: string[], opts: ParseOptions = {}): ParsedMrz | null {
  const lines = rawLines.map((l) => l.trim().toUpperCase());
  const format = detectFormat(lines);
  if (!format) return null;
  const ext = !!opts.extended;
  const structureErrors: string[] = [];
  if (!lines.every((l) => /^[A-Z0-9<]+$/.test(l))) structureErrors.push('invalid_characters');
  const checks: MrzCheck[] = [];
  const add = (field: MrzCheck['field'], data: string, digit: string) => checks.push({ field, ok: checkDigit(data) === digit });
  // An absent expiry (`<<<<<<`, Part 3 §4.2.2.1 issuers without one) with a `<` or `0` check digit.
  const addExpiry = (data: string, digit: string) => {
    if (ext && /^<{6}$/.test(data) && (digit === '<' || digit === '0')) checks.push({ field: 'expiry_date', ok: true });
    else add('expiry_date', data, digit);
  };
  /**
   * Long document number (Part 5 §4.2.4 / Part 6 §4.2.4): the `<` after nine characters says the
   * rest and the check digit sit in the optional field. Issuers differ on whether that `<`
   * enters the check digit; 2.x accepts either (both seen in peer test suites).
   */
  const longNumber = (first9: string, optional: string): { number: string; rest: string } | null => {
    const tail = longNumberTail(optional);
    if (!tail) return null;
    const number = first9.replace(/<+$/, '') + tail.more;
    const ok = checkDigit(number) === tail.digit || (ext && checkDigit(`${first9}<${tail.more}`) === tail.digit);
    checks.push({ field: 'document_number', ok });
    return { number, rest: optional.slice(tail.more.length + 1) };
  };
  let out: Omit<ParsedMrz, 'checks' | 'checkDigitsValid' | 'structureErrors' | 'format' | 'lines' | 'kind'>;
  let kind: MrzKind = format;
  let noExpiry = false;

  if (format === 'TD1') {
    const [l1, l2, l3] = lines as [string, string, string];
    let documentNumber = l1.slice(5, 14);
    let optional1 = l1.slice(15, 30);
    if (l1[14] === '<' && /^[A-Z0-9]/.test(optional1)) {
      // Long number: remainder then a check digit over the whole number, in the optional field.
      const long = longNumber(documentNumber, optional1);
      if (long) {
        documentNumber = long.number;
        optional1 = long.rest;
      } else add('document_number', documentNumber, '?');
    } else add('document_number', documentNumber, l1[14]!);
    add('birth_date', l2.slice(0, 6), l2[6]!);
    addExpiry(l2.slice(8, 14), l2[14]!);
    noExpiry = ext && /^<{6}$/.test(l2.slice(8, 14));
    add('composite', l1.slice(5, 30) + l2.slice(0, 7) + l2.slice(8, 15) + l2.slice(18, 29), l2[29]!);
    out = {
      documentCode: l1.slice(0, 2), issuingState: l1.slice(2, 5), documentNumber: documentNumber.replace(/<+$/, ''),
      nationality: l2.slice(15, 18), birthDate: l2.slice(0, 6), sex: l2[7]!, expiryDate: noExpiry ? '' : l2.slice(8, 14),
      ...splitName(l3), optional1: optional1.replace(/<+$/, ''), optional2: l2.slice(18, 29),
    };
  } else if (ext && format === 'TD2' && lines[0]!.startsWith('IDFRA')) {
    // French national ID card 1988–2021 (2×36, not ICAO TD2): L1 ID FRA surname(25) dept(3) office(3);
    // L2 number(12) check, given names(14), birth(6) check, sex, composite over L1 + L2[0..35).
    const [l1, l2] = lines as [string, string];
    kind = 'FR-ID';
    add('document_number', l2.slice(0, 12), l2[12]!);
    add('birth_date', l2.slice(27, 33), l2[33]!);
    add('composite', l1 + l2.slice(0, 35), l2[35]!);
    const given = l2.slice(13, 27).replace(/<+$/, '');
    out = {
      documentCode: 'ID', issuingState: 'FRA', documentNumber: l2.slice(0, 12).replace(/<+$/, ''), nationality: 'FRA',
      birthDate: l2.slice(27, 33), sex: l2[34]!, expiryDate: '', surnames: l1.slice(5, 30).replace(/<+$/, '').replace(/<+/g, ' ').trim(),
      // Given names are separated by `<<` on this card.
      givenNames: given.split(/<{2,}/).map((g) => g.replace(/</g, ' ').trim()).filter(Boolean).join(' '),
      optional1: l1.slice(30, 36), optional2: '',
    };
    noExpiry = true;
  } else {
    const [l1, l2] = lines as [string, string];
    const width = format === 'TD3' ? 44 : 36;
    const visa = ext && l1[0] === 'V';
    if (visa) kind = format === 'TD3' ? 'MRV-A' : 'MRV-B';
    let documentNumber = l2.slice(0, 9).replace(/<+$/, '');
    let optionalTd2 = l2.slice(28, 35);
    if (ext && format === 'TD2' && !visa && l2[9] === '<' && /^[A-Z0-9]/.test(optionalTd2)) {
      const long = longNumber(l2.slice(0, 9), optionalTd2);
      if (long) { documentNumber = long.number; optionalTd2 = long.rest; } else add('document_number', l2.slice(0, 9), '?');
    } else add('document_number', l2.slice(0, 9), l2[9]!);
    add('birth_date', l2.slice(13, 19), l2[19]!);
    addExpiry(l2.slice(21, 27), l2[27]!);
    noExpiry = ext && /^<{6}$/.test(l2.slice(21, 27));
    if (visa) {
      // Visas (Part 7): no personal-number check digit and no composite; the optional data runs to the end.
      out = {
        documentCode: l1.slice(0, 2), issuingState: l1.slice(2, 5), documentNumber, nationality: l2.slice(10, 13),
        birthDate: l2.slice(13, 19), sex: l2[20]!, expiryDate: noExpiry ? '' : l2.slice(21, 27), ...splitName(l1.slice(5, width)),
        optional1: l2.slice(28).replace(/<+$/, ''), optional2: '',
      };
    } else if (format === 'TD3') {
      const personal = l2.slice(28, 42);
      // Part 4 §4.2.2.2: an empty personal number may carry `<` or `0` as its check digit.
      if (!(/^<+$/.test(personal) && (l2[42] === '<' || l2[42] === '0'))) add('personal_number', personal, l2[42]!);
      add('composite', l2.slice(0, 10) + l2.slice(13, 20) + l2.slice(21, 43), l2[43]!);
    } else {
      add('composite', l2.slice(0, 10) + l2.slice(13, 20) + l2.slice(21, 35), l2[35]!);
    }
    if (!visa) out = {
      documentCode: l1.slice(0, 2), issuingState: l1.slice(2, 5), documentNumber,
      nationality: l2.slice(10, 13), birthDate: l2.slice(13, 19), sex: l2[20]!, expiryDate: noExpiry ? '' : l2.slice(21, 27),
      ...splitName(l1.slice(5, width)),
      optional1: format === 'TD3' ? l2.slice(28, 42).replace(/<+$/, '') : optionalTd2.replace(/<+$/, ''), optional2: '',
    };
  }
  if (!validDate(out!.birthDate)) structureErrors.push('invalid_birth_date');
  if (!noExpiry && !validDate(out!.expiryDate)) structureErrors.push('invalid_expiry_date');
  return { format, kind, lines, ...out!, checks, checkDigitsValid: checks.every((c) => c.ok), structureErrors };
}

/** ICAO leaves the century to policy (DOCUMENT_FACTS I-20): birth dates never lie in the future. */
export function birthDateIso(yymmdd: string, now: Date): string | undefined {
  if (!validDate(yymmdd)) return undefined;
  const yy = Number(yymmdd.slice(0, 2));
  const century = 2000 + yy > now.getUTCFullYear() ? 1900 : 2000;
  return `${century + yy}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
}

export function expiryDateIso(yymmdd: string): string | undefined {
  if (!validDate(yymmdd)) return undefined;
  return `20${yymmdd.slice(0, 2)}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
}
