import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { renderDocument } from '../../../tools/corpus/index.js';
import { MEX_INE, MOZ_PASSPORT } from '../templates/catalogue.js';
import { GlyphReader } from './glyphs.js';
import { repairLines } from './repair.js';

const PITCH = 2.54 * 12;

async function band(png: Buffer, box: { x: number; y: number; w: number; h: number }): Promise<Buffer> {
  const m = await sharp(png).metadata();
  return sharp(png).extract({ left: Math.round(box.x * m.width!), top: Math.round(box.y * m.height!), width: Math.round(box.w * m.width!), height: Math.round(box.h * m.height!) }).png().toBuffer();
}

describe('GlyphReader (fixed-pitch OCR-B)', () => {
  it('reads TD3 and TD1 bands of flat renders exactly once letter/digit positions are repaired', async () => {
    const reader = await GlyphReader.create(PITCH);
    const passport = await renderDocument({ template: 'moz-passport', seed: 31 });
    const ine = await renderDocument({ template: 'mex-ine', seed: 32 });
    const td3 = await reader.read(await band(passport.image, MOZ_PASSPORT.mrz.band), 2, 44, PITCH);
    const td1 = await reader.read(await band(ine.back!, MEX_INE.mrz.band), 3, 30, PITCH);
    expect(repairLines(td3!.lines.map((l) => l.text), 'TD3')).toEqual(passport.truth.mrz.lines);
    expect(repairLines(td1!.lines.map((l) => l.text), 'TD1')).toEqual(ine.truth.mrz.lines);
    expect(td3!.minScore).toBeGreaterThan(0.5);
  });

  it('finds no MRZ in a blank band', async () => {
    const reader = await GlyphReader.create(PITCH);
    const blank = await sharp({ create: { width: 1400, height: 160, channels: 3, background: '#ffffff' } }).png().toBuffer();
    expect(await reader.read(blank, 2, 44, PITCH)).toBeNull();
  });
});
