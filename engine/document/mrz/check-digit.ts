/** ICAO 9303 Part 3 §4.9: weights 7,3,1 repeating; `<` = 0, A = 10 … Z = 35. */
export function charValue(c: string): number {
  if (c === '<') return 0;
  const code = c.charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 90) return code - 55;
  return -1;
}

export function checkDigit(text: string): string {
  const weights = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < text.length; i++) {
    const v = charValue(text[i]!);
    if (v < 0) return '?';
    sum += v * weights[i % 3]!;
  }
  return String(sum % 10);
}

/** CURP check digit (DOCUMENT_FACTS §3): 37-symbol alphabet with Ñ at 24, weights 18..2. */
const CURP_ALPHABET = '0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ';
export function curpCheckDigit(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const v = CURP_ALPHABET.indexOf(first17[i] ?? '?');
    if (v < 0) return '?';
    sum += v * (18 - i);
  }
  return String((10 - (sum % 10)) % 10);
}
