import { describe, expect, it } from 'vitest';
import { checkDigit, curpCheckDigit } from './check-digit.js';

describe('check digits', () => {
  it('reproduces the ICAO worked values', () => {
    expect(checkDigit('520727')).toBe('3');
    expect(checkDigit('AB2134<<<')).toBe('5');
    expect(checkDigit('L898902C3')).toBe('6');
    const td3 = 'HA672242<6YTO5802254M9601086<<<<<<<<<<<<<<0';
    expect(checkDigit(td3.slice(0, 10) + td3.slice(13, 20) + td3.slice(21, 43))).toBe('8');
  });
  it('computes CURP check digits with Ñ in the alphabet', () => {
    expect(curpCheckDigit('PEEA900315MDFRJN0')).toBe('4');
    expect(curpCheckDigit('SABC560626MDFLRN0')).toBe('1');
    expect(curpCheckDigit('PEEA050315MDFRJNA')).toBe('5');
  });
});
