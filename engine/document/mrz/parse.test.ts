import { describe, expect, it } from 'vitest';
import { buildTd1, buildTd3 } from './encode.js';
import { birthDateIso, parseMrz } from './parse.js';
import { cleanOcrLines, repairLines } from './repair.js';

describe('parseMrz', () => {
  it('validates the ICAO specimen passport, UTO included', () => {
    const p = parseMrz(['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'])!;
    expect(p.format).toBe('TD3');
    expect(p.checkDigitsValid).toBe(true);
    expect(p).toMatchObject({ issuingState: 'UTO', documentNumber: 'L898902C3', surnames: 'ERIKSSON', givenNames: 'ANNA MARIA', sex: 'F' });
  });

  it('accepts the Spanish sex letters of an INE card (H = hombre)', () => {
    const female = parseMrz(['IDMEX2468135799<<0415987654321', '9003152M3312315MEX<01<<12345<3', 'PRUEBA<EJEMPLO<<ANA<LUISA<<<<<'])!;
    expect(female.checkDigitsValid).toBe(true);
    expect(female.sex).toBe('M');
    const male = buildTd1({ documentCode: 'ID', issuingState: 'MEX', documentNumber: '246813579', nationality: 'MEX', birthDate: '1990-03-15', sex: 'H', expiryDate: '2033-12-31', surnames: 'PRUEBA EJEMPLO', givenNames: 'JUAN', optional1: '<<0415987654321', optional2: '<01<<12345<' });
    const p = parseMrz(male)!;
    expect(p.checkDigitsValid).toBe(true);
    expect(p.sex).toBe('H');
  });

  it('reads a TD1 long document number with its check digit over the whole number', () => {
    const p = parseMrz(['I<MOZ110100123<456A2<<<<<<<<<<', '8507206M2907192MOZ<<<<<<<<<<<2', 'EXEMPLO<<TESTE<AMOSTRA<<<<<<<<'])!;
    expect(p.documentNumber).toBe('110100123456A');
    expect(p.checkDigitsValid).toBe(true);
  });

  it('flags a broken check digit and keeps the other checks', () => {
    const [l1, l2] = buildTd3({ documentCode: 'P<', issuingState: 'MEX', documentNumber: 'G12345678', nationality: 'MEX', birthDate: '1990-03-15', sex: 'F', expiryDate: '2034-05-09', surnames: 'PRUEBA EJEMPLO', givenNames: 'ANA LUISA' });
    expect(l2).toBe('G123456786MEX9003152F3405097<<<<<<<<<<<<<<<6');
    const broken = l2.slice(0, 19) + '9' + l2.slice(20);
    const p = parseMrz([l1, broken])!;
    expect(p.checkDigitsValid).toBe(false);
    expect(p.checks.find((c) => c.field === 'birth_date')!.ok).toBe(false);
    expect(p.checks.find((c) => c.field === 'document_number')!.ok).toBe(true);
  });

  it('picks the century so that a birth date is never in the future', () => {
    expect(birthDateIso('900315', new Date('2026-01-01'))).toBe('1990-03-15');
    expect(birthDateIso('050315', new Date('2026-01-01'))).toBe('2005-03-15');
  });
});

describe('OCR clean-up', () => {
  it('maps letter/digit confusions only where the format allows one class', () => {
    const [l1, l2] = repairLines(['P<MEXPRUEBA<<ANA<<<<<<<<<<<<<<<<<<<<<<<<<<<<', 'G12345678GMEX9OO3152F34O5097<<<<<<<<<<<<<<<6'], 'TD3');
    expect(l2).toBe('G123456786MEX9003152F3405097<<<<<<<<<<<<<<<6');
    expect(l1).toBe('P<MEXPRUEBA<<ANA<<<<<<<<<<<<<<<<<<<<<<<<<<<<');
  });
  it('restores a dropped filler and ignores short noise lines', () => {
    const lines = cleanOcrLines(['ITTJAE', 'P<MEXPRUEBA<<ANA<<<<<<<<<<<<<<<<<<<<<<<<<<<', 'G123456786MEX9003152F3405097<<<<<<<<<<<<<<<6'], 'TD3')!;
    expect(lines.map((l) => l.length)).toEqual([44, 44]);
  });
});
