import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AUTHENTICITY_SETTINGS_V5 } from '../settings.js';
import { analyzeMetadata } from './metadata-analysis.js';

/** A JPEG whose APP1 EXIF carries `thumb` as the IFD1 thumbnail (IFD0 empty). */
function withExifThumbnail(jpeg: Buffer, thumb: Buffer): Buffer {
  const ifd0 = 8;
  const ifd1 = ifd0 + 2 + 4;
  const thumbAt = ifd1 + 2 + 2 * 12 + 4;
  const tiff = Buffer.alloc(thumbAt + thumb.length);
  tiff.write('II', 0, 'ascii');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(ifd0, 4);
  tiff.writeUInt16LE(0, ifd0);
  tiff.writeUInt32LE(ifd1, ifd0 + 2);
  tiff.writeUInt16LE(2, ifd1);
  tiff.writeUInt16LE(0x0201, ifd1 + 2); // JPEGInterchangeFormat
  tiff.writeUInt16LE(4, ifd1 + 4);
  tiff.writeUInt32LE(1, ifd1 + 6);
  tiff.writeUInt32LE(thumbAt, ifd1 + 10);
  tiff.writeUInt16LE(0x0202, ifd1 + 14); // JPEGInterchangeFormatLength
  tiff.writeUInt16LE(4, ifd1 + 16);
  tiff.writeUInt32LE(1, ifd1 + 18);
  tiff.writeUInt32LE(thumb.length, ifd1 + 22);
  tiff.writeUInt32LE(0, ifd1 + 26);
  thumb.copy(tiff, thumbAt);
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'binary'), tiff]);
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xffe1, 0);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, payload, jpeg.subarray(2)]);
}

const grey = (w: number, h: number, quality: number) =>
  sharp({ create: { width: w, height: h, channels: 3, background: { r: 120, g: 130, b: 140 } } }).jpeg({ quality }).toBuffer();

describe('EXIF thumbnail decoding is bounded', () => {
  it('compares an ordinary thumbnail with the image, and does not decode one claiming more than 4 MP', async () => {
    const main = await grey(640, 480, 90);
    const ordinary = await analyzeMetadata(withExifThumbnail(main, await grey(160, 120, 80)), { width: 640, height: 480 }, AUTHENTICITY_SETTINGS_V5);
    expect(ordinary.evidence.thumbnail_present).toBe(true);
    expect(typeof ordinary.evidence.thumbnail_correlation).toBe('number');

    // 2400×1800 = 4.3 MP, small enough to fit the 64 KB APP1 segment as a flat JPEG.
    const big = await grey(2400, 1800, 5);
    expect(big.length).toBeLessThan(60_000);
    const bomb = await analyzeMetadata(withExifThumbnail(main, big), { width: 640, height: 480 }, AUTHENTICITY_SETTINGS_V5);
    expect(bomb.evidence.thumbnail_present).toBe(true);
    expect(bomb.evidence.thumbnail_correlation).toBeUndefined();
  });
});
