import { states } from 'mrz';
import { curpCheckDigit } from '../mrz/check-digit.js';
import type { ParsedMrz } from '../mrz/parse.js';
import type { Confidence, DocumentTemplate } from './types.js';

export interface RuleResult { rule: string; ok: boolean; confidence: Confidence; reason: string; detail?: string }

/** A failed rule is a hard signal only when the fact behind it is HIGH or MED (DOCUMENT_FACTS legend). */
export const isHard = (r: RuleResult) => !r.ok && (r.confidence === 'HIGH' || r.confidence === 'MED');

const CURP_RE = /^[A-Z][AEIOUX][A-Z]{2}\d{6}[HM](AS|BC|BS|CC|CL|CM|CS|CH|DF|DG|GT|GR|HG|JC|MC|MN|MS|NT|NL|OC|PL|QT|QR|SP|SL|SR|TC|TS|TL|VZ|YN|ZS|NE)[B-DF-HJ-NP-TV-Z]{3}[0-9A-Z]\d$/;
const CLAVE_RE = /^[A-Z]{6}\d{6}(0[1-9]|[12]\d|3[0-2])[HM]\d{3}$/;
const INEGI = ['AS', 'BC', 'BS', 'CC', 'CL', 'CM', 'CS', 'CH', 'DF', 'DG', 'GT', 'GR', 'HG', 'JC', 'MC', 'MN', 'MS', 'NT', 'NL', 'OC', 'PL', 'QT', 'QR', 'SP', 'SL', 'SR', 'TC', 'TS', 'TL', 'VZ', 'YN', 'ZS'];

/**
 * The CURP's birth date (positions 5–10, YYMMDD) must exist on the calendar: position 17 is a
 * digit for births before 2000 and a letter from 2000 (RENAPO's homoclave rule, DOCUMENT_FACTS §3).
 */
export function curpDateValid(curp: string): boolean {
  const m = /^.{4}(\d{2})(\d{2})(\d{2}).{6}(.)/.exec(curp);
  if (!m) return false;
  const year = (/\d/.test(m[4]!) ? 1900 : 2000) + Number(m[1]);
  const month = Number(m[2]), day = Number(m[3]);
  const d = new Date(Date.UTC(year, month - 1, day));
  return month >= 1 && month <= 12 && d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

export interface RuleOptions {
  /** 2.x: a CURP whose birth date does not exist (30 February) fails its format rule. */
  curpDateCheck?: boolean;
}

export function curpRules(curp: string | undefined, mrz: ParsedMrz | null, ineSex: boolean, opts: RuleOptions = {}): RuleResult[] {
  if (!curp) return [];
  const out: RuleResult[] = [];
  const shapeOk = CURP_RE.test(curp) && (!opts.curpDateCheck || curpDateValid(curp));
  // The CURP comes from visual-zone OCR, which has no check digits of its own: its shape and check
  // digit are soft signals (an OCR slip looks the same as an edit); once its check digit holds, the
  // read is corroborated and a conflict with the MRZ is hard.
  out.push({ rule: 'curp_format', ok: shapeOk, confidence: 'LOW', reason: 'curp_format_invalid' });
  if (!shapeOk) return out;
  const digitOk = curpCheckDigit(curp.slice(0, 17)) === curp[17];
  out.push({ rule: 'curp_check_digit', ok: digitOk, confidence: 'LOW', reason: 'curp_check_digit_mismatch' });
  if (mrz && digitOk) {
    out.push({ rule: 'curp_dob_equals_mrz', ok: curp.slice(4, 10) === mrz.birthDate, confidence: 'HIGH', reason: 'cross_field_mismatch' });
    const mrzSex = ineSex ? mrz.sex : mrz.sex === 'F' ? 'M' : mrz.sex === 'M' ? 'H' : mrz.sex;
    out.push({ rule: 'curp_sex_equals_mrz', ok: curp[10] === mrzSex, confidence: ineSex ? 'MED' : 'LOW', reason: 'cross_field_mismatch' });
  }
  return out;
}

/** Rules of one template against the MRZ and the visual zone (INE: DOCUMENT_FACTS §2). */
/** The MRZ fields no check digit covers, judged only for plausibility so the reader can retry. */
export function plausibleMrz(t: DocumentTemplate, mrz: ParsedMrz): boolean {
  const knownState = (s: string) => s in states || s === 'UTO' || /^D<</.test(s);
  return t.mrz.documentCodes.test(mrz.documentCode) && knownState(mrz.issuingState) && knownState(mrz.nationality) && t.mrz.sexLetters.includes(mrz.sex);
}

export function templateRules(t: DocumentTemplate, mrz: ParsedMrz | null, visual: Record<string, string | undefined>, expectedState: string, now: Date, opts: RuleOptions = {}): RuleResult[] {
  const out: RuleResult[] = [];
  if (!mrz) return out;
  out.push({ rule: 'mrz_format', ok: mrz.format === t.mrz.format, confidence: 'HIGH', reason: 'template_mismatch' });
  out.push({ rule: 'document_code', ok: t.mrz.documentCodes.test(mrz.documentCode), confidence: t.mrz.layoutConfidence, reason: 'template_mismatch' });
  out.push({ rule: 'issuing_state', ok: mrz.issuingState === expectedState, confidence: 'HIGH', reason: 'issuing_state_mismatch', detail: mrz.issuingState === expectedState ? undefined : 'declared country differs from MRZ' });
  const knownState = mrz.issuingState in states || mrz.issuingState === 'UTO' || /^D<</.test(mrz.issuingState);
  out.push({ rule: 'issuing_state_known', ok: knownState, confidence: 'HIGH', reason: 'issuing_state_mismatch' });
  out.push({ rule: 'sex_letter', ok: t.mrz.sexLetters.includes(mrz.sex), confidence: 'HIGH', reason: 'template_mismatch' });
  t.mrz.lineRules.forEach((rules, i) => {
    for (const r of rules) out.push({ rule: `mrz_line_${i + 1}_shape`, ok: r.pattern.test(mrz.lines[i] ?? ''), confidence: r.confidence, reason: 'template_mismatch' });
  });
  out.push({ rule: 'document_number_format', ok: t.documentNumber.pattern.test(mrz.documentNumber), confidence: t.documentNumber.confidence, reason: 'document_number_format' });

  const expiry = `20${mrz.expiryDate.slice(0, 2)}-${mrz.expiryDate.slice(2, 4)}-${mrz.expiryDate.slice(4, 6)}`;
  if (/^\d{6}$/.test(mrz.expiryDate)) {
    out.push({ rule: 'not_expired', ok: expiry >= now.toISOString().slice(0, 10), confidence: 'HIGH', reason: 'document_expired' });
  }
  if (t.expiryRule?.kind === 'dec31') out.push({ rule: 'expiry_31_december', ok: mrz.expiryDate.slice(2) === '1231', confidence: t.expiryRule.confidence, reason: 'template_mismatch' });

  if (t.id === 'mex-ine') {
    const clave = visual.clave_elector?.replace(/\s/g, '');
    const curp = visual.curp?.replace(/\s/g, '');
    out.push(...curpRules(curp, mrz, true, opts));
    // The Clave has no public check digit, so an OCR slip cannot be told from an edit: soft only.
    if (clave) {
      const ok = CLAVE_RE.test(clave);
      out.push({ rule: 'clave_format', ok, confidence: 'LOW', reason: 'clave_elector_format' });
      if (ok) {
        out.push({ rule: 'clave_dob_equals_mrz', ok: clave.slice(6, 12) === mrz.birthDate, confidence: 'LOW', reason: 'cross_field_mismatch' });
        out.push({ rule: 'clave_sex_equals_mrz', ok: clave[14] === mrz.sex, confidence: 'LOW', reason: 'cross_field_mismatch' });
        if (curp && CURP_RE.test(curp)) {
          const code = INEGI.indexOf(curp.slice(11, 13));
          out.push({ rule: 'clave_state_equals_curp', ok: code < 0 || Number(clave.slice(12, 14)) === code + 1, confidence: 'LOW', reason: 'cross_field_mismatch' });
        }
      }
    }
    const seccion = visual.seccion?.replace(/\D/g, '');
    if (seccion) out.push({ rule: 'seccion_equals_mrz', ok: seccion === mrz.lines[0]!.slice(17, 21), confidence: 'HIGH', reason: 'visual_mrz_mismatch' });
    const vig = visual.vigencia?.match(/(\d{4})\s*$/)?.[1];
    if (vig) out.push({ rule: 'vigencia_equals_mrz_expiry', ok: vig.slice(2) === mrz.expiryDate.slice(0, 2), confidence: 'MED', reason: 'visual_mrz_mismatch' });
  }
  if (t.id === 'mex-passport') out.push(...curpRules(visual.curp?.replace(/\s/g, ''), mrz, false, opts));
  return out;
}
