import { describe, expect, it } from 'vitest';
import { curpCheckDigit } from '../mrz/check-digit.js';
import { curpDateValid, curpRules } from './rules.js';

const withDigit = (first17: string) => first17 + curpCheckDigit(first17);

describe('CURP birth date on the calendar (2.x)', () => {
  it('accepts real dates, including 29 February of a leap year, for both centuries', () => {
    expect(curpDateValid(withDigit('GOVM800229MDFMLR0'))).toBe(true);
    expect(curpDateValid(withDigit('GOVM040229MDFMLRA'))).toBe(true);
  });

  it('rejects 30 February, 31 April, month 13 and 29 February of a common year', () => {
    for (const c of ['GOVM800230MDFMLR0', 'GOVM800431MDFMLR0', 'GOVM801301MDFMLR0', 'GOVM810229MDFMLR0']) expect(curpDateValid(withDigit(c)), c).toBe(false);
  });

  it('a well-formed CURP with an impossible date fails its format rule under 2.x only', () => {
    const curp = withDigit('GOVM800230MDFMLR0');
    expect(curpRules(curp, null, true, { curpDateCheck: true }).find((r) => r.rule === 'curp_format')!.ok).toBe(false);
    expect(curpRules(curp, null, true).find((r) => r.rule === 'curp_format')!.ok).toBe(true);
  });
});
