import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import exifr from 'exifr';
import { describe, expect, it } from 'vitest';
import { readAllCoefficients } from '../../../engine/authenticity/image/jpeg-coefficients.js';
import { parseJpegStructure } from '../../../engine/authenticity/metadata/jpeg-structure.js';
import { ANNEX_K_LUMA, ijgTable } from '../../../engine/authenticity/metadata/quantization.js';
import { identifyTableFamily } from '../../../engine/authenticity/metadata/table-families.js';
import { createRng } from '../training/rng.js';
import { encodeCameraJpeg, realCameraHeaders } from './camera.js';
import { encodeJpegWithTables, exifSegment } from './jpeg-encode.js';

/** The generator's own JPEG encoder (any tables) and the simulated camera of corpus recipe v3. */
const HERE = path.dirname(fileURLToPath(import.meta.url));
const DOCS = path.resolve(HERE, '../../../../shared/documents-real');
const ANNEX_K_CHROMA = [
  17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99,
  ...new Array<number>(32).fill(99),
];

async function realImage(width: number, height: number) {
  const file = readdirSync(DOCS).sort().find((f) => f.endsWith('.jpg') && readFileSync(path.join(DOCS, f))[0] === 0xff)!;
  const { data, info } = await sharp(readFileSync(path.join(DOCS, file))).resize(width, height, { fit: 'fill' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, rgb: new Uint8Array(data) };
}

describe('jpeg-encode', () => {
  it('writes exactly the coefficients libjpeg writes for the same tables (4:2:0 and 4:4:4, odd sizes)', async () => {
    const img = await realImage(1003, 757);
    for (const [sub, sampling] of [['4:2:0', [2, 2]], ['4:4:4', [1, 1]]] as const) {
      const ref = await sharp(Buffer.from(img.rgb), { raw: { width: img.width, height: img.height, channels: 3 } })
        .jpeg({ quality: 90, chromaSubsampling: sub, optimiseCoding: false })
        .toBuffer();
      const mine = await encodeJpegWithTables(img, { luma: ijgTable(ANNEX_K_LUMA, 90), chroma: ijgTable(ANNEX_K_CHROMA, 90), sampling });
      const a = readAllCoefficients(ref)!;
      const b = readAllCoefficients(mine)!;
      expect(b).toHaveLength(3);
      for (let c = 0; c < 3; c++) {
        expect(Array.from(b[c]!.table)).toEqual(Array.from(a[c]!.table));
        expect(Buffer.from(b[c]!.coefficients.buffer).equals(Buffer.from(a[c]!.coefficients.buffer))).toBe(true);
      }
    }
  });

  it('writes a vendor table, 4:2:2 sampling and EXIF that other decoders read back', async () => {
    const img = await realImage(641, 479);
    const vendor = realCameraHeaders().find((h) => h.family === 'vendor' && h.sampling[0] === 2 && h.sampling[1] === 1)!;
    expect(vendor).toBeDefined();
    const exif = await exifSegment({ IFD0: { Make: vendor.make, Model: vendor.model } });
    const bytes = await encodeJpegWithTables(img, vendor, exif);
    const st = parseJpegStructure(bytes);
    expect(Array.from(st.quantTables.find((t) => t.id === 0)!.values)).toEqual(vendor.luma);
    expect(Array.from(st.quantTables.find((t) => t.id === 1)!.values)).toEqual(vendor.chroma);
    expect(identifyTableFamily(st.quantTables)).toBeNull();
    const tags = (await exifr.parse(bytes, { pick: ['Make', 'Model'] })) as { Make: string; Model: string };
    expect(tags.Make).toBe(vendor.make);
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([641, 479]);
    let se = 0;
    for (let i = 0; i < data.length; i++) se += (data[i]! - img.rgb[i]!) ** 2;
    expect(10 * Math.log10((255 * 255) / (se / data.length))).toBeGreaterThan(28);
  });

  it('corpus recipe v3: the simulated camera never writes a table family other than Annex K', async () => {
    const img = await realImage(320, 240);
    const seen = new Set<string>();
    for (let i = 0; i < 24; i++) {
      const bytes = await encodeCameraJpeg(img, createRng(900 + i), new Date('2026-11-20T10:00:00Z'), undefined, 'real');
      const fam = identifyTableFamily(parseJpegStructure(bytes).quantTables);
      seen.add(fam ? fam.families.join('+') : 'vendor');
    }
    expect([...seen].every((f) => f === 'annex_k' || f === 'vendor')).toBe(true);
    expect(seen.has('vendor')).toBe(true);
  });
});
