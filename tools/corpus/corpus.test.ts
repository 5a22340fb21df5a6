import { describe, expect, it } from 'vitest';
import { parseMrz } from '../../engine/document/mrz/parse.js';
import { MEX_INE } from '../../engine/document/templates/catalogue.js';
import { curpCheckDigit } from '../../engine/document/mrz/check-digit.js';
import { availablePortraits, forgeDocument, photograph, renderDocument } from './index.js';

describe('renderDocument', () => {
  it('is reproducible from its seed', async () => {
    const a = await renderDocument({ template: 'mex-passport', seed: 5 });
    const b = await renderDocument({ template: 'mex-passport', seed: 5 });
    expect(a.truth).toEqual(b.truth);
    expect(a.image.equals(b.image)).toBe(true);
  });

  it.each(['moz-bi', 'moz-passport', 'mex-ine', 'mex-passport', 'icao-td3'])('prints a valid MRZ on %s', async (template) => {
    const doc = await renderDocument({ template, seed: 9 });
    const p = parseMrz(doc.truth.mrz.lines)!;
    expect(p.checkDigitsValid).toBe(true);
    expect(doc.truth.mrz.side === 'back').toBe(!!doc.back);
  });

  it('builds INE data that follows the INE rules', async () => {
    const doc = await renderDocument({ template: 'mex-ine', seed: 21 });
    const [l1, l2] = doc.truth.mrz.lines;
    for (const [i, rules] of MEX_INE.mrz.lineRules.entries()) for (const r of rules) expect(doc.truth.mrz.lines[i]).toMatch(r.pattern);
    const curp = doc.truth.identity.curp!;
    expect(curpCheckDigit(curp.slice(0, 17))).toBe(curp[17]);
    expect(curp.slice(4, 10)).toBe(l2!.slice(0, 6));
    expect(l1!.slice(17, 21)).toBe(doc.truth.identity.seccion);
  });

  it('records the portrait identity and box', async () => {
    const portrait = availablePortraits()[0]!;
    const doc = await renderDocument({ template: 'moz-passport', seed: 2, portrait });
    expect(doc.truth.portrait).toMatchObject({ identity: portrait.identity, side: 'front' });
    expect(doc.truth.portrait!.box.width).toBeGreaterThan(100);
  });

  it('forges a broken check digit that the parser rejects', async () => {
    const doc = await forgeDocument('broken_check_digit', { template: 'moz-passport', seed: 3 });
    expect(parseMrz(doc.truth.mrz.lines)!.checkDigitsValid).toBe(false);
    expect(doc.truth.forgery!.expected_reasons).toEqual(['mrz_check_digit_mismatch']);
  });

  it('photographs a document with its corners recorded', async () => {
    const doc = await renderDocument({ template: 'mex-ine', seed: 1 });
    const scene = await photograph(doc.image, 1);
    expect(scene.quad).toHaveLength(4);
    expect(scene.quad[0]![0]).toBeGreaterThan(0);
  });
});
