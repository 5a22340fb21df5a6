import { decodeRussianInternalName, transliterate } from './mrz/encode.js';

/** Names compared in the MRZ alphabet: accents folded (ICAO Table A), Cyrillic spelt as ICAO Table B, punctuation to spaces. */
export function normalizeName(name: string): string {
  return transliterate(name).replace(/<+/g, ' ').trim();
}

export function levenshtein(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0]!;
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j]!;
      dp[j] = Math.min(dp[j]! + 1, dp[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length]!;
}

export function similarity(a: string, b: string): number {
  if (!a && !b) return 1;
  return 1 - levenshtein(a, b) / Math.max(a.length, b.length);
}

export type Verdict = 'match' | 'partial' | 'mismatch' | 'unverified';
export interface FieldComparison { field: string; verdict: Verdict; score: number; a?: string; b?: string; note?: string }

/**
 * Names: exact after folding is a match; the same tokens in another order, a missing second
 * given name or surname, or an MRZ truncation are `partial` (a person may leave out a name they
 * do not use); anything else scores by edit distance. Ñ may be N or NXX (ICAO Table A).
 */
export function compareNames(field: string, a: string | undefined, b: string | undefined, opts: { truncatedB?: boolean; match: number; mismatch: number; bRussianInternal?: boolean }): FieldComparison {
  if (!a || !b) return { field, verdict: 'unverified', score: 0, a, b };
  const x = normalizeName(a).replace(/NXX/g, 'N');
  // `bRussianInternal`: `b` is a Russian internal passport's MRZ name (digits for some letters, see
  // encode.ts); decoded to Cyrillic, it is spelt as Table B spells a Cyrillic or ICAO-Latin claim.
  const y = normalizeName(opts.bRussianInternal ? decodeRussianInternalName(b) : b).replace(/NXX/g, 'N');
  // A name in a script the MRZ alphabet has no table for here (Arabic, Greek, CJK) folds to nothing:
  // not comparable, which is not a mismatch.
  if ((!x && /\p{L}/u.test(a)) || (!y && /\p{L}/u.test(b))) return { field, verdict: 'unverified', score: 0, a, b, note: 'script_not_transliterated' };
  if (x === y) return { field, verdict: 'match', score: 1, a, b };
  const tx = x.split(' ').filter(Boolean), ty = y.split(' ').filter(Boolean);
  const flat = (t: string[]) => t.join('');
  if (flat(tx) === flat(ty)) return { field, verdict: 'match', score: 1, a, b, note: 'spacing' };
  // ICAO truncates long names in the MRZ (Part 4 §4.2.3): a prefix of the full name is the same name.
  if (opts.truncatedB && flat(tx).startsWith(flat(ty))) return { field, verdict: 'match', score: 0.97, a, b, note: 'mrz_truncated' };
  // Ü, Ö, Ä may be written UE/OE/AE or U/O/A (ICAO Table A), and OCR often loses the diaeresis.
  const umlaut = (t: string) => t.replace(/([AOU])E/g, '$1').replace(/ /g, '');
  if (umlaut(x) === umlaut(y)) return { field, verdict: 'match', score: 0.97, a, b, note: 'umlaut_folding' };
  const subset = (s: string[], t: string[]) => s.length > 0 && s.every((w) => t.includes(w));
  if (subset(tx, ty) || subset(ty, tx)) return { field, verdict: 'partial', score: 0.9, a, b, note: 'subset_of_names' };
  const score = Math.max(similarity(x, y), similarity([...tx].sort().join(' '), [...ty].sort().join(' ')));
  const verdict: Verdict = score >= opts.match ? 'match' : score < opts.mismatch ? 'mismatch' : 'partial';
  return { field, verdict, score, a, b };
}

/** Accepts ISO, DD/MM/YYYY, DD.MM.YYYY, DD-MM-YYYY and DD MMM YYYY (English, Portuguese, Spanish months). */
export function parseDate(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const t = text.trim().toUpperCase();
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /(\d{1,2})\s*[/.\-]\s*(\d{1,2})\s*[/.\-]\s*(\d{4})/.exec(t);
  if (m) return `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
  const months = ['JAN', 'FEB|FEV', 'MAR', 'APR|ABR', 'MAY|MAI', 'JUN', 'JUL', 'AUG|AGO', 'SEP|SET', 'OCT|OUT', 'NOV', 'DEC|DEZ|DIC'];
  m = /(\d{1,2})\s+([A-Z]{3})[A-Z]*\s+(\d{4})/.exec(t);
  if (m) {
    const idx = months.findIndex((alts) => alts.split('|').includes(m![2]!));
    if (idx >= 0) return `${m[3]}-${String(idx + 1).padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
  }
  return undefined;
}

/** Shapes the visual-zone OCR cannot tell apart in a sans-serif font; the MRZ has check digits, the visual zone does not. */
const CONFUSABLE: Record<string, string> = { O: '0', Q: '0', D: '0', I: '1', L: '1', Z: '2', S: '5', B: '8', G: '6' };
export const foldConfusables = (t: string) => Array.from(t, (c) => CONFUSABLE[c] ?? c).join('');

export function compareExact(field: string, a: string | undefined, b: string | undefined, opts: { confusable?: boolean } = {}): FieldComparison {
  if (!a || !b) return { field, verdict: 'unverified', score: 0, a, b };
  const fold = opts.confusable ? foldConfusables : (t: string) => t;
  const x = fold(a.toUpperCase().replace(/[\s\-.]/g, '')), y = fold(b.toUpperCase().replace(/[\s\-.]/g, ''));
  return x === y ? { field, verdict: 'match', score: 1, a, b } : { field, verdict: 'mismatch', score: similarity(x, y), a, b };
}
