import { describe, expect, it } from 'vitest';
import { normalizeCountry } from './documents.js';

describe('country codes', () => {
  it('normalises alpha-2 and alpha-3 to alpha-3', () => {
    expect(normalizeCountry('mx')).toEqual({ ok: true, alpha3: 'MEX' });
    expect(normalizeCountry('MOZ')).toEqual({ ok: true, alpha3: 'MOZ' });
    expect(normalizeCountry(' mz ')).toEqual({ ok: true, alpha3: 'MOZ' });
  });
  it('rejects wildcards explicitly and unknown codes separately', () => {
    for (const w of ['*', 'ANY', 'all', 'XX', 'M*', '%']) expect(normalizeCountry(w)).toEqual({ ok: false, code: 'wildcard_country_not_allowed' });
    for (const u of ['QQ', 'ZZZ', 'MEXICO', '']) expect(normalizeCountry(u)).toEqual({ ok: false, code: 'unknown_country' });
  });
});
