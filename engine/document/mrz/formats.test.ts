import { describe, expect, it } from 'vitest';
import { interpret } from './scan.js';
import { parseMrz } from './parse.js';

/**
 * Every MRZ family the 2.x parser reads (`parseMrz(lines, { extended: true })`), proven on
 * published peer test vectors. Sources (repository @ commit, path):
 * - [cheminfo] cheminfo/mrz @ ce4ad68a038abe3f1fa16a574ae15d23b77fcc51 (MIT), src/parse/__tests__/{td1,td2,td3,frenchNationalId}.test.ts
 * - [appintheair] appintheair/MRZParser @ 64b73fae8092b31d0a378f0d000c244470c7ac44 (MIT), Tests/MRZParserTests/MRZParserTests.swift
 * - [coppernic] Coppernic/mrz-parser @ a1a8c86bd52d4dfd7907d7654c8c176ee8f526d0 (Apache-2.0), mrz/src/test/kotlin/fr/coppernic/lib/mrz/resources/Resources.kt
 * Each source asserts the vector valid (or, where noted, invalid) and gives the fields checked here.
 */
const ext = (lines: string[]) => parseMrz(lines, { extended: true })!;

describe('peer vectors: valid documents', () => {
  it.each([
    // [cheminfo td3 'Utopia example'] = ICAO 9303 Part 4 Appendix A.
    ['TD3 Utopia', 'TD3', ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'], { documentNumber: 'L898902C3', surnames: 'ERIKSSON', givenNames: 'ANNA MARIA', birthDate: '740812', expiryDate: '120415', optional1: 'ZE184226B' }],
    // [cheminfo td3 'German example']: single-letter state D<<.
    ['TD3 Germany', 'TD3', ['P<D<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<', 'C01X0006H1D<<6408125F1710319<<<<<<<<<<<<<<<0'], { documentNumber: 'C01X0006H', issuingState: 'D<<', surnames: 'MUSTERMANN' }],
    // [cheminfo td3 'CHN PO']: letters in the personal-number field.
    ['TD3 China PO', 'TD3', ['POCHNABULIKEMU<<ABULA<<<<<<<<<<<<<<<<<<<<<<<', 'E596593216CHN9701078M2510077LAKCLCLMMBKGG932'], { documentNumber: 'E59659321', documentCode: 'PO' }],
    // [appintheair testTD3NetherlandsPassport]
    ['TD3 Netherlands', 'TD3', ['P<NLDDE<BRUIJN<<WILLEKE<LISELOTTE<<<<<<<<<<<', 'SPECI20142NLD6503101F2403096999999990<<<<<84'], { documentNumber: 'SPECI2014', surnames: 'DE BRUIJN', givenNames: 'WILLEKE LISELOTTE' }],
    // [appintheair testTD3RussianPassport]: internal passport, no expiry (`<<<<<<`, check digit `<`).
    ['TD3 absent expiry', 'TD3', ['PNRUSZDRIL7K<<SERGEQ<ANATOL9EVI3<<<<<<<<<<<<', '3919353498RUS7207233M<<<<<<<4151218910003<50'], { documentNumber: '391935349', expiryDate: '', optional1: '4151218910003' }],
    // [cheminfo td1 'swiss ID - valid']
    ['TD1 Switzerland', 'TD1', ['IDCHEA1234567<6<<<<<<<<<<<<<<<', '7510256M2009018CHE<<<<<<<<<<<8', 'SMITH<<JOHN<ALBERT<<<<<<<<<<<<'], { documentNumber: 'A1234567', surnames: 'SMITH', givenNames: 'JOHN ALBERT' }],
    // [cheminfo td1 'Utopia example']
    ['TD1 Utopia', 'TD1', ['I<UTOD231458907ABC<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<1', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'], { documentNumber: 'D23145890', optional1: 'ABC' }],
    // [cheminfo td1 'Document number field details']: long number, check digit over the number alone (ICAO).
    ['TD1 long number (ICAO)', 'TD1', ['I<UTOD23145890<1233<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<2', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'], { documentNumber: 'D23145890123' }],
    // [cheminfo td1 ICAO 9303 p11 D.2 vector]: long number.
    ['TD1 long number (ICAO p11)', 'TD1', ['I<UTOD23145890<7349<<<<<<<<<<<', '3407127M9507122UTO<<<<<<<<<<<2', 'STEVENSON<<PETER<JOHN<<<<<<<<<'], { documentNumber: 'D23145890734' }],
    // [cheminfo td1 'Belgium ID BEL-BO-03003 with embedded document check digit']: long number whose
    // check digit is computed with the `<` indicator included (the other filler treatment).
    ['TD1 long number (Belgium, `<` counted)', 'TD1', ['IDBEL000590240<6013<<<<<<<<<<<', '8512017F1311048BEL851201002007', 'REINARTZ<<ULRIKE<KATIA<E<<<<<<'], { documentNumber: '000590240601', surnames: 'REINARTZ', givenNames: 'ULRIKE KATIA E' }],
    // [cheminfo td1 'Finland ID FIN-BO-12001 - valid']
    ['TD1 Finland', 'TD1', ['I<FINXA10000585010195<112X<<<<', '9501016F2803135FIN<<<<<<<<<<<7', 'SPECIMEN<TRAVEL<<VILMA<SOFIA<<'], { documentNumber: 'XA1000058', givenNames: 'VILMA SOFIA' }],
    // [cheminfo td2 'Utopia example']
    ['TD2 Utopia', 'TD2', ['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6'], { documentNumber: 'D23145890', surnames: 'ERIKSSON' }],
    // [appintheair testTD2]: document code IR.
    ['TD2 IR', 'TD2', ['IRUTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6'], { documentCode: 'IR' }],
    // [appintheair testMRVA] / [coppernic MRVA]: no personal-number check, no composite.
    ['MRV-A', 'MRV-A', ['V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L8988901C4XXX4009078F96121096ZE184226B<<<<<<'], { documentNumber: 'L8988901C', nationality: 'XXX', birthDate: '400907', expiryDate: '961210', optional1: '6ZE184226B' }],
    // [appintheair testMRVB] / [coppernic MRVB]
    ['MRV-B', 'MRV-B', ['V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'L8988901C4XXX4009078F9612109<<<<<<<<'], { documentNumber: 'L8988901C', expiryDate: '961210', optional1: '' }],
    // [cheminfo frenchNationalId 'valid MRZ']
    ['French ID', 'FR-ID', ['IDFRATEST<NAME<<<<<<<<<<<<<<<<0CHE02', '1710GVA123451ROBERTA<<<<<<<9112311F2'], { documentNumber: '1710GVA12345', surnames: 'TEST NAME', givenNames: 'ROBERTA', birthDate: '911231', sex: 'F' }],
    // [cheminfo frenchNationalId 'valid MRZ with no administrative code']
    ['French ID, no admin code', 'FR-ID', ['IDFRABERTHIER<<<<<<<<<<<<<<<<<<<<<<<', '9409923102854CORINNE<<<<<<<6512068F4'], { documentNumber: '940992310285', surnames: 'BERTHIER', givenNames: 'CORINNE' }],
  ] as const)('%s', (_name, kind, lines, fields) => {
    const p = ext([...lines]);
    expect(p.kind).toBe(kind);
    expect(p.checks.filter((c) => !c.ok), JSON.stringify(p.checks)).toEqual([]);
    expect(p.checkDigitsValid).toBe(true);
    expect(p.structureErrors).toEqual([]);
    expect(p).toMatchObject(fields);
  });
});

describe('peer vectors: invalid documents stay invalid', () => {
  it('[cheminfo td3] wrong personal-number check digit', () => {
    const p = ext(['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<20']);
    expect(p.checkDigitsValid).toBe(false);
    expect(p.checks.find((c) => c.field === 'personal_number')!.ok).toBe(false);
  });

  it('[cheminfo td1] Belgian long number with a wrong check digit', () => {
    const p = ext(['IDBEL000590240<6016<<<<<<<<<<<', '8512017F1311048BEL851201002007', 'REINARTZ<<ULRIKE<KATIA<E<<<<<<']);
    expect(p.checks.find((c) => c.field === 'document_number')!.ok).toBe(false);
  });

  it('visas carry no composite: a changed optional character does not pass as a composite error, a changed number fails', () => {
    expect(ext(['V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L8988901C4XXX4009078F96121096ZE184226C<<<<<<']).checkDigitsValid).toBe(true);
    expect(ext(['V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L8988902C4XXX4009078F96121096ZE184226B<<<<<<']).checkDigitsValid).toBe(false);
  });

  it('an absent expiry needs its `<` (or 0) check digit; a real date with `<` fails', () => {
    expect(ext(['PNRUSZDRIL7K<<SERGEQ<ANATOL9EVI3<<<<<<<<<<<<', '3919353498RUS7207233M1<<<<<<4151218910003<50']).checkDigitsValid).toBe(false);
  });
});

describe('1.x parsing is unchanged', () => {
  it('without `extended` a visa is still read as TD3 with a composite, and an absent expiry is invalid', () => {
    const visa = parseMrz(['V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L8988901C4XXX4009078F96121096ZE184226B<<<<<<'])!;
    expect(visa.kind).toBe('TD3');
    expect(visa.checks.some((c) => c.field === 'composite')).toBe(true);
    const internal = parseMrz(['PNRUSZDRIL7K<<SERGEQ<ANATOL9EVI3<<<<<<<<<<<<', '3919353498RUS7207233M<<<<<<<4151218910003<50'])!;
    expect(internal.checkDigitsValid).toBe(false);
  });

  it('without `extended` only the ICAO long-number treatment holds', () => {
    expect(parseMrz(['IDBEL000590240<6013<<<<<<<<<<<', '8512017F1311048BEL851201002007', 'REINARTZ<<ULRIKE<KATIA<E<<<<<<'])!.checks.find((c) => c.field === 'document_number')!.ok).toBe(false);
  });
});

describe('check-digit-guided correction (scan.interpret)', () => {
  const ocr = (...lines: string[]) => lines.map((text) => ({ text, confidence: 90 }));

  it('[cheminfo td3 "Use autocorrection"-style] letters in digit fields are fixed by field type', () => {
    const r = interpret(ocr('P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UT07408I22F12O4159ZE184226B<<<<<1O'))!;
    expect(r.lines[1]).toBe('L898902C36UTO7408122F1204159ZE184226B<<<<<10');
    expect(r.valid).toBe(true);
  });

  it('a confusable in the alphanumeric document number is fixed only when exactly one swap satisfies the check digits', () => {
    const r = interpret(ocr('P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L8989O2C36UTO7408122F1204159ZE184226B<<<<<10'))!;
    expect(r.lines[1]).toBe('L898902C36UTO7408122F1204159ZE184226B<<<<<10');
    expect(r.corrections).toBeGreaterThan(0);
  });

  it('a wrong digit that no single confusable swap explains stays invalid', () => {
    const r = interpret(ocr('P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408132F1204159ZE184226B<<<<<10'))!;
    expect(r.valid).toBe(false);
  });

  it('format follows the line lengths (TD1 from three 30-character lines)', () => {
    const r = interpret(ocr('IDCHEA1234567<6<<<<<<<<<<<<<<<', '7510256M2009018CHE<<<<<<<<<<<8', 'SMITH<<JOHN<ALBERT<<<<<<<<<<<<'))!;
    expect(r.format).toBe('TD1');
    expect(r.valid).toBe(true);
  });
});
