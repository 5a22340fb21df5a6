import { describe, expect, it } from 'vitest';
import { repairCurp } from './read.js';

describe('CURP repair', () => {
  it('drops a doubled O/0 only when exactly one deletion gives a valid CURP', () => {
    expect(repairCurp('GAMSO041231HNTRRNBO')).toBe('GAMS041231HNTRRNB0');
    expect(repairCurp('GORX970510MMNNMMO00')).toBe('GORX970510MMNNMM00');
  });
  it('maps letter/digit confusions by position and leaves a wrong CURP wrong', () => {
    expect(repairCurp('PEEA9OO315MDFRJN04')).toBe('PEEA900315MDFRJN04');
    expect(repairCurp('PEEA900315MDFRJN05')).toBe('PEEA900315MDFRJN05');
  });
});
