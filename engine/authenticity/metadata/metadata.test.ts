import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { facesDir } from '../../assets.js';
import { AUTHENTICITY_SETTINGS_V4 as S, AUTHENTICITY_SETTINGS_V5 as V5 } from '../settings.js';
// Most cases below pin the v1–v4 rules (still run for Cases stamped with ep-2026.11-1…4); the
// v5 cases say what changed after measuring the rules on real genuine captures.
import { parseJpegStructure } from './jpeg-structure.js';
import { analyzeMetadata } from './metadata-analysis.js';
import { ANNEX_K_LUMA, fingerprintQuantization } from './quantization.js';
import { identifyTableFamily, TABLE_FAMILIES } from './table-families.js';

async function jpeg(options: { quality: number; exif?: Record<string, Record<string, string>>; table?: number }): Promise<Buffer> {
  const img = sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 120, g: 140, b: 160 } } }).jpeg({
    quality: options.quality,
    quantisationTable: options.table ?? 0,
  });
  return (options.exif ? img.withExif(options.exif as never) : img).toBuffer();
}

/** Overwrites a SHORT/LONG EXIF tag value in place (the file's TIFF byte order). */
function setExifShort(bytes: Buffer, tag: number, value: number): void {
  const tiff = bytes.indexOf(Buffer.from('Exif\0\0', 'latin1')) + 6;
  const little = bytes.toString('latin1', tiff, tiff + 2) === 'II';
  for (let i = tiff; i < tiff + 4096; i += 2) {
    const t = little ? bytes.readUInt16LE(i) : bytes.readUInt16BE(i);
    const type = little ? bytes.readUInt16LE(i + 2) : bytes.readUInt16BE(i + 2);
    if (t === tag && (type === 3 || type === 4)) {
      if (type === 3) little ? bytes.writeUInt16LE(value, i + 8) : bytes.writeUInt16BE(value, i + 8);
      else little ? bytes.writeUInt32LE(value, i + 8) : bytes.writeUInt32BE(value, i + 8);
      return;
    }
  }
  throw new Error('tag not found');
}

/** Builds an APP1 Exif segment holding only IFD0 (Make) and an IFD1 JPEG thumbnail, and inserts it after SOI. */
function withThumbnail(main: Buffer, thumb: Buffer): Buffer {
  const make = Buffer.from('Canon\0', 'latin1');
  const ifd0At = 8;
  const ifd0Size = 2 + 12 + 4;
  const makeAt = ifd0At + ifd0Size;
  const ifd1At = makeAt + make.length + (make.length % 2);
  const ifd1Size = 2 + 2 * 12 + 4;
  const thumbAt = ifd1At + ifd1Size;
  const tiff = Buffer.alloc(thumbAt + thumb.length);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(ifd0At, 4);
  tiff.writeUInt16LE(1, ifd0At);
  tiff.writeUInt16LE(0x010f, ifd0At + 2);
  tiff.writeUInt16LE(2, ifd0At + 4);
  tiff.writeUInt32LE(make.length, ifd0At + 6);
  tiff.writeUInt32LE(makeAt, ifd0At + 10);
  tiff.writeUInt32LE(ifd1At, ifd0At + 14);
  make.copy(tiff, makeAt);
  tiff.writeUInt16LE(2, ifd1At);
  tiff.writeUInt16LE(0x0201, ifd1At + 2);
  tiff.writeUInt16LE(4, ifd1At + 4);
  tiff.writeUInt32LE(1, ifd1At + 6);
  tiff.writeUInt32LE(thumbAt, ifd1At + 10);
  tiff.writeUInt16LE(0x0202, ifd1At + 14);
  tiff.writeUInt16LE(4, ifd1At + 16);
  tiff.writeUInt32LE(1, ifd1At + 18);
  tiff.writeUInt32LE(thumb.length, ifd1At + 22);
  tiff.writeUInt32LE(0, ifd1At + 26);
  thumb.copy(tiff, thumbAt);
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const header = Buffer.from([0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]);
  return Buffer.concat([main.subarray(0, 2), header, payload, main.subarray(2)]);
}

describe('quantisation tables', () => {
  it('reads the DQT segments and recovers the IJG quality of a library save', async () => {
    const structure = parseJpegStructure(await jpeg({ quality: 75 }));
    expect(structure.quantTables.length).toBeGreaterThanOrEqual(2);
    const q = fingerprintQuantization(structure.quantTables)!;
    expect(q.standardIjg).toBe(true);
    expect(q.lumaQuality).toBe(75);
  });

  it('tells non-IJG tables apart and still estimates a quality', async () => {
    const q = fingerprintQuantization(parseJpegStructure(await jpeg({ quality: 90, table: 3 })).quantTables)!;
    expect(q.standardIjg).toBe(false);
    expect(q.lumaQuality).toBeGreaterThan(70);
  });
});

describe('quantisation-table families', () => {
  it('names the base table of every mozjpeg family at any quality, exactly as the encoder wrote it', async () => {
    for (const [index, family] of TABLE_FAMILIES.entries()) {
      for (const quality of [60, 85, 95]) {
        const match = identifyTableFamily(parseJpegStructure(await jpeg({ quality, table: index })).quantTables);
        expect(match?.families, `${family} q${quality}`).toEqual([family]);
        // The flat table is the same at neighbouring qualities; the lowest one is reported.
        if (family !== 'flat') expect(match?.quality).toBe(quality);
      }
    }
  });

  it('does not name a table that is off by one step in one coefficient (a vendor table)', () => {
    const values = Uint16Array.from(ANNEX_K_LUMA.map((v) => Math.max(1, Math.floor((v * 20 + 50) / 100))));
    expect(identifyTableFamily([{ id: 0, precision: 8, values }])).toMatchObject({ families: ['annex_k'], quality: 90 });
    values[10] = values[10]! + 1;
    expect(identifyTableFamily([{ id: 0, precision: 8, values }])).toBeNull();
  });

  it('settings v4 call a family cameras do not write a strong editor_quantization_detected; camera families pass', async () => {
    const v4 = { ...S, version: 'test-v4' };
    const editor = await analyzeMetadata(await jpeg({ quality: 92, table: 7 }), { width: 320, height: 240 }, v4);
    expect(editor.signals.find((x) => x.code === 'editor_quantization_detected')).toMatchObject({
      strength: 'strong',
      evidence: { table_family: 'ahumada_watson_peterson', luma_quality: 92 },
    });
    for (const table of [0, 2, 3, 4, 5]) {
      const camera = await analyzeMetadata(await jpeg({ quality: 92, table }), { width: 320, height: 240 }, v4);
      expect(camera.signals.map((x) => x.code)).not.toContain('editor_quantization_detected');
      expect(camera.evidence.jpeg_table_family).toBe(TABLE_FAMILIES[table]);
    }
    // Released settings without the list never look (and add no evidence).
    const v3 = await analyzeMetadata(await jpeg({ quality: 92, table: 7 }), { width: 320, height: 240 }, { ...S, cameraTableFamilies: undefined });
    expect(v3.signals.map((x) => x.code)).not.toContain('editor_quantization_detected');
    expect(v3.evidence.jpeg_table_family).toBeUndefined();
  });
});

describe('metadata fingerprints', () => {
  it('flags a pixel editor in the Software tag as strong', async () => {
    const bytes = await jpeg({ quality: 80, exif: { IFD0: { Make: 'Apple', Model: 'iPhone 13', Software: 'Adobe Photoshop 25.1 (Windows)' } } });
    const r = await analyzeMetadata(bytes, { width: 320, height: 240 }, S);
    const s = r.signals.find((x) => x.code === 'editing_software_detected');
    expect(s?.strength).toBe('strong');
    expect(s?.evidence.software_family).toBe('adobe_photoshop');
    // The camera-branded file re-saved at a quality cameras do not use.
    expect(r.signals.some((x) => x.code === 'editor_quantization_detected')).toBe(true);
    // v5: the Software tag still counts; IJG tables below 85 do not (many real cameras write q75).
    const v5 = await analyzeMetadata(bytes, { width: 320, height: 240 }, V5);
    expect(v5.signals.find((x) => x.code === 'editing_software_detected')?.strength).toBe('strong');
    expect(v5.signals.some((x) => x.code === 'editor_quantization_detected')).toBe(false);
  });

  it('keeps GPS as evidence and never as a reason', async () => {
    const bytes = await jpeg({
      quality: 92,
      exif: {
        IFD0: { Make: 'Google', Model: 'Pixel 7a' },
        IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '25/1 58/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '32/1 35/1 0/1' },
      },
    });
    const r = await analyzeMetadata(bytes, { width: 320, height: 240 }, S);
    expect(r.evidence.gps_present).toBe(true);
    expect(r.evidence.gps_latitude).toBeCloseTo(-25.9667, 3);
    expect(r.evidence.gps_longitude).toBeCloseTo(32.5833, 3);
    expect(r.signals.map((s) => s.code).join(',')).not.toMatch(/gps/);
    expect(r.signals).toEqual([]);
  });

  it('compares the capture time with the session, respecting a stated offset', async () => {
    const bytes = await jpeg({
      quality: 92,
      exif: { IFD0: { Make: 'samsung', Model: 'SM-A546B' }, IFD2: { DateTimeOriginal: '2026:03:01 10:00:00', OffsetTimeOriginal: '+02:00' } },
    });
    const inSession = await analyzeMetadata(bytes, { width: 320, height: 240, sessionStartedAt: new Date('2026-03-01T07:58:00Z'), submittedAt: new Date('2026-03-01T08:05:00Z') }, S);
    expect(inSession.signals.some((s) => s.code === 'capture_time_inconsistent')).toBe(false);
    const later = await analyzeMetadata(bytes, { width: 320, height: 240, sessionStartedAt: new Date('2026-03-09T08:00:00Z') }, S);
    expect(later.signals.find((s) => s.code === 'capture_time_inconsistent')?.evidence.finding).toBe('captured_before_session');
  });

  it('flags metadata rewritten after capture and dimensions that no longer match', async () => {
    const bytes = await jpeg({
      quality: 92,
      exif: {
        IFD0: { Make: 'samsung', Model: 'SM-A546B', DateTime: '2026:03:02 18:00:00' },
        IFD2: { DateTimeOriginal: '2026:03:01 10:00:00' },
      },
    });
    // libvips always writes the true size; patch it as a crop-after-capture would leave it.
    setExifShort(bytes, 0xa002, 4000);
    const r = await analyzeMetadata(bytes, { width: 320, height: 240 }, S);
    const findings = r.signals.filter((s) => s.code === 'metadata_inconsistent').map((s) => s.evidence.finding);
    expect(findings).toContain('modified_after_capture');
    expect(findings).toContain('dimensions_mismatch');
    // v5: both are evidence only (real cameras, organisers and share sheets do this to honest files).
    const v5 = await analyzeMetadata(bytes, { width: 320, height: 240 }, V5);
    expect(v5.signals.filter((s) => s.code === 'metadata_inconsistent')).toEqual([]);
    expect(v5.evidence.exif_dimensions_match).toBe(false);
    expect(v5.evidence.modify_after_capture_s).toBe(32 * 3600);
  });

  it('reads real camera photos: orientation, dimensions and the organiser tag they carry', async () => {
    const bytes = readFileSync(path.join(facesDir(), 'minivision', 'image_T1.jpg'));
    const meta = await sharp(bytes).metadata();
    const r = await analyzeMetadata(bytes, { width: meta.width!, height: meta.height! }, S);
    expect(meta.orientation).toBe(6);
    expect(r.evidence.exif_present).toBe(true);
    expect(r.evidence.exif_dimensions_match).toBe(true);
    // Shotwell organised these files: a weak (organiser) tag, never a strong editor finding.
    const s = r.signals.find((x) => x.code === 'editing_software_detected');
    expect(s?.strength).toBe('weak');
    expect(s?.evidence.software_family).toBe('shotwell');
  });

  it('compares the embedded thumbnail with the main image', async () => {
    const scene = (flip: boolean) =>
      sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 230, g: 230, b: 220 } } }).composite([
        { input: { create: { width: 120, height: 160, channels: 3, background: { r: 40, g: 40, b: 60 } } }, left: flip ? 180 : 20, top: 40 },
      ]);
    const main = await scene(false).jpeg({ quality: 90 }).toBuffer();
    const sameThumb = await sharp(main).resize(160, 120).jpeg({ quality: 80 }).toBuffer();
    const otherThumb = await sharp(await scene(true).png().toBuffer()).resize(160, 120).jpeg({ quality: 80 }).toBuffer();
    const ok = await analyzeMetadata(withThumbnail(main, sameThumb), { width: 320, height: 240 }, S);
    expect(ok.evidence.thumbnail_present).toBe(true);
    expect(ok.signals.some((s) => s.code === 'thumbnail_inconsistent')).toBe(false);
    const edited = await analyzeMetadata(withThumbnail(main, otherThumb), { width: 320, height: 240 }, S);
    expect(edited.signals.find((s) => s.code === 'thumbnail_inconsistent')?.strength).toBe('strong');
    // v5: a same-shape thumbnail showing another picture is still reported (weak) …
    const v5 = await analyzeMetadata(withThumbnail(main, otherThumb), { width: 320, height: 240 }, V5);
    expect(v5.evidence.thumbnail_correlation as number).toBeLessThan(0.2);
    expect(v5.signals.find((s) => s.code === 'thumbnail_inconsistent')?.strength).toBe('weak');
    // … a letterboxed thumbnail of a 3:2 frame (as real cameras store it) is not.
    const wide = await sharp(main).resize(360, 240, { fit: 'fill' }).jpeg({ quality: 90 }).toBuffer();
    const letterboxed = await sharp(await sharp(wide).resize(160, 107).toBuffer()).extend({ top: 7, bottom: 6, background: '#000' }).jpeg({ quality: 80 }).toBuffer();
    const v4Wide = await analyzeMetadata(withThumbnail(wide, letterboxed), { width: 360, height: 240 }, S);
    expect(v4Wide.signals.some((s) => s.code === 'thumbnail_inconsistent')).toBe(true);
    const v5Wide = await analyzeMetadata(withThumbnail(wide, letterboxed), { width: 360, height: 240 }, V5);
    expect(v5Wide.signals.some((s) => s.code === 'thumbnail_inconsistent')).toBe(false);
  });
});
