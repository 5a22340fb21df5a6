import { checkDigit } from './check-digit.js';

export type MrzFormat = 'TD1' | 'TD2' | 'TD3';

export interface MrzCheck {
  field: 'document_number' | 'birth_date' | 'expiry_date' | 'personal_number' | 'composite';
  ok: boolean;
}

export interface ParsedMrz {
  format: MrzFormat;
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
export function parseMrz(rawLines: string[]): ParsedMrz | null {
  const lines = rawLines.map((l) => l.trim().toUpperCase());
  const format = detectFormat(lines);
  if (!format) return null;
  const structureErrors: string[] = [];
  if (!lines.every((l) => /^[A-Z0-9<]+$/.test(l))) structureErrors.push('invalid_characters');
  const checks: MrzCheck[] = [];
  const add = (field: MrzCheck['field'], data: string, digit: string) => checks.push({ field, ok: checkDigit(data) === digit });
  let out: Omit<ParsedMrz, 'checks' | 'checkDigitsValid' | 'structureErrors' | 'format' | 'lines'>;

  if (format === 'TD1') {
    const [l1, l2, l3] = lines as [string, string, string];
    let documentNumber = l1.slice(5, 14);
    let optional1 = l1.slice(15, 30);
    if (l1[14] === '<' && /^[A-Z0-9]/.test(optional1)) {
      // Long number: remainder then a check digit over the whole number, in the optional field.
      const m = /^([A-Z0-9]*?)(\d)(<|$)/.exec(optional1);
      if (m) {
        documentNumber = documentNumber.replace(/<+$/, '') + m[1];
        add('document_number', documentNumber, m[2]!);
        optional1 = optional1.slice(m[1]!.length + 1);
      } else add('document_number', documentNumber, '?');
    } else add('document_number', documentNumber, l1[14]!);
    add('birth_date', l2.slice(0, 6), l2[6]!);
    add('expiry_date', l2.slice(8, 14), l2[14]!);
    add('composite', l1.slice(5, 30) + l2.slice(0, 7) + l2.slice(8, 15) + l2.slice(18, 29), l2[29]!);
    out = {
      documentCode: l1.slice(0, 2), issuingState: l1.slice(2, 5), documentNumber: documentNumber.replace(/<+$/, ''),
      nationality: l2.slice(15, 18), birthDate: l2.slice(0, 6), sex: l2[7]!, expiryDate: l2.slice(8, 14),
      ...splitName(l3), optional1: optional1.replace(/<+$/, ''), optional2: l2.slice(18, 29),
    };
  } else {
    const [l1, l2] = lines as [string, string];
    const width = format === 'TD3' ? 44 : 36;
    add('document_number', l2.slice(0, 9), l2[9]!);
    add('birth_date', l2.slice(13, 19), l2[19]!);
    add('expiry_date', l2.slice(21, 27), l2[27]!);
    if (format === 'TD3') {
      const personal = l2.slice(28, 42);
      // Part 4 §4.2.2.2: an empty personal number may carry `<` or `0` as its check digit.
      if (!(/^<+$/.test(personal) && (l2[42] === '<' || l2[42] === '0'))) add('personal_number', personal, l2[42]!);
      add('composite', l2.slice(0, 10) + l2.slice(13, 20) + l2.slice(21, 43), l2[43]!);
    } else {
      add('composite', l2.slice(0, 10) + l2.slice(13, 20) + l2.slice(21, 35), l2[35]!);
    }
    out = {
      documentCode: l1.slice(0, 2), issuingState: l1.slice(2, 5), documentNumber: l2.slice(0, 9).replace(/<+$/, ''),
      nationality: l2.slice(10, 13), birthDate: l2.slice(13, 19), sex: l2[20]!, expiryDate: l2.slice(21, 27),
      ...splitName(l1.slice(5, width)),
      optional1: format === 'TD3' ? l2.slice(28, 42).replace(/<+$/, '') : l2.slice(28, 35).replace(/<+$/, ''), optional2: '',
    };
  }
  if (!validDate(out.birthDate)) structureErrors.push('invalid_birth_date');
  if (!validDate(out.expiryDate)) structureErrors.push('invalid_expiry_date');
  return { format, lines, ...out, checks, checkDigitsValid: checks.every((c) => c.ok), structureErrors };
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
