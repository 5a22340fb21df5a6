import { describe, expect, it } from 'vitest';
import { recordMatch } from './record-match.js';

const collected = { given_names: 'ANA LUISA', surnames: 'PRUEBA EJEMPLO', date_of_birth: '1990-03-15', document_number: 'G12345678' };

describe('record match', () => {
  it('simple match: agrees across accents, date formats and name order', () => {
    const r = recordMatch({ mode: 'simple_match' }, collected, { full_name: 'Ana Luisa Prueba Ejemplo', date_of_birth: '15/03/1990', id_number: 'G12345678' });
    expect(r.status).toBe('passed');
    expect(r.reasons).toEqual([]);
  });

  it('simple match: flags name, date-of-birth and number divergences with codes, values only in evidence', () => {
    const r = recordMatch({ mode: 'simple_match' }, collected, { full_name: 'Maria Gomez', date_of_birth: '1991-03-15', id_number: 'G99999999' });
    expect(r.status).toBe('review');
    expect(r.reasons.sort()).toEqual(['record_date_of_birth_divergence', 'record_name_divergence', 'record_number_divergence']);
    expect(JSON.stringify(r.reasons)).not.toContain('Gomez');
    expect(JSON.stringify(r.evidence)).toContain('Maria Gomez');
  });

  it('rules mode applies equals and contains over the chosen keys', () => {
    const settings = { mode: 'rules' as const, rules: [
      { collected: 'surnames' as const, claimed_key: 'last_name', operator: 'contains' as const },
      { collected: 'document_number' as const, claimed_key: 'doc', operator: 'equals' as const },
    ] };
    expect(recordMatch(settings, collected, { last_name: 'Ejemplo', doc: 'G12345678' }).status).toBe('passed');
    const r = recordMatch(settings, collected, { last_name: 'Smith', doc: 'G12345678' });
    expect(r.status).toBe('review');
    expect(r.reasons).toEqual(['record_name_divergence']);
  });

  it('is unavailable, not passed, when there is nothing to compare', () => {
    const r = recordMatch({ mode: 'simple_match' }, {}, { full_name: 'Ana' });
    expect(r.status).toBe('unavailable');
    expect(r.reasons).toEqual(['record_match_nothing_to_compare']);
  });
});
