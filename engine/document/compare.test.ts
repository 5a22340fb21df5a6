import { describe, expect, it } from 'vitest';
import { compareExact, compareNames, parseDate } from './compare.js';

const opts = { match: 0.9, mismatch: 0.75 };

describe('name comparison', () => {
  it('folds accents and Ñ as ICAO transliteration does', () => {
    expect(compareNames('surnames', 'PEÑA NÚÑEZ', 'PENA NUNEZ', opts).verdict).toBe('match');
    expect(compareNames('surnames', 'Peña', 'PENXXA', opts).verdict).toBe('match');
  });
  it('treats compound surnames written with or without spaces and hyphens alike', () => {
    expect(compareNames('surnames', 'Smith-Jones', 'SMITH JONES', opts).verdict).toBe('match');
    expect(compareNames('surnames', 'DE LA CRUZ', 'DELACRUZ', opts).verdict).toBe('match');
  });
  it('a missing second surname or given name is partial, another name is a mismatch', () => {
    expect(compareNames('surnames', 'GARCIA', 'GARCIA LOPEZ', opts).verdict).toBe('partial');
    expect(compareNames('given_names', 'MARIA GUADALUPE', 'MARIA', opts).verdict).toBe('partial');
    expect(compareNames('surnames', 'HERNANDEZ', 'MACHEL', opts).verdict).toBe('mismatch');
  });
  it('accepts an MRZ truncation as the same name, but not without truncation', () => {
    expect(compareNames('given_names', 'MARIA GUADALUPE', 'MARIA GUA', { ...opts, truncatedB: true }).verdict).toBe('match');
    expect(compareNames('given_names', 'MARIA GUADALUPE', 'MARIA GUA', opts).verdict).not.toBe('match');
  });
  it('treats Ü written as U or UE as the same letter', () => {
    expect(compareNames('given_names', 'JURGEN', 'JUERGEN', opts).verdict).toBe('match');
  });
  it('spells Cyrillic as ICAO 9303 Part 3 Table B does, and the Latin letters Table A lists', () => {
    expect(compareNames('surnames', 'Щербакова', 'SHCHERBAKOVA', opts).verdict).toBe('match');
    expect(compareNames('given_names', 'Юлия Андреевна', 'IULIIA ANDREEVNA', opts).verdict).toBe('match');
    expect(compareNames('surnames', 'Объедков', 'OBIEEDKOV', opts).verdict).toBe('match');
    expect(compareNames('surnames', 'Łukasiewicz', 'LUKASIEWICZ', opts).verdict).toBe('match');
    expect(compareNames('given_names', 'Søren', 'SOEREN', opts).verdict).toBe('match');
    expect(compareNames('given_names', 'Þórður', 'THORDUR', opts).verdict).toBe('match');
    expect(compareNames('surnames', 'Đorđević', 'DORDEVIC', opts).verdict).toBe('match');
    // Another name in Cyrillic is still another name.
    expect(compareNames('surnames', 'Петров', 'IVANOV', opts).verdict).toBe('mismatch');
  });
  it('decodes a Russian internal passport MRZ name (MVD encoding: digits for some letters) before comparing', () => {
    const ru = { ...opts, bRussianInternal: true };
    expect(compareNames('surnames', 'Имярек', 'IM8REK', ru).verdict).toBe('match');
    expect(compareNames('surnames', 'IMIAREK', 'IM8REK', ru).verdict).toBe('match');
    expect(compareNames('given_names', 'Анатольевич', 'ANATOL9EVI3', ru).verdict).toBe('match');
    expect(compareNames('surnames', 'Щукин', 'WUKIN', ru).verdict).toBe('match');
    // Read as any other passport's name, the digits are noise.
    expect(compareNames('surnames', 'Имярек', 'IM8REK', opts).verdict).not.toBe('match');
  });
  it('a name in a script without a table here is unverified, not a mismatch', () => {
    expect(compareNames('surnames', 'محمد', 'MOHAMED', opts)).toMatchObject({ verdict: 'unverified', note: 'script_not_transliterated' });
    expect(compareNames('surnames', 'MOHAMED', 'Παπαδόπουλος', opts)).toMatchObject({ verdict: 'unverified', note: 'script_not_transliterated' });
  });
});

describe('dates and numbers', () => {
  it('parses the date formats printed on the documents', () => {
    expect(parseDate('15/03/1990')).toBe('1990-03-15');
    expect(parseDate('1990-03-15')).toBe('1990-03-15');
    expect(parseDate('15 MAR 1990')).toBe('1990-03-15');
    expect(parseDate('15 DEZ 1990')).toBe('1990-12-15');
    expect(parseDate('garbage')).toBeUndefined();
  });
  it('compares numbers ignoring spaces and dashes only', () => {
    expect(compareExact('n', 'G 1234-5678', 'G12345678').verdict).toBe('match');
    expect(compareExact('n', 'G12345679', 'G12345678').verdict).toBe('mismatch');
  });
});
