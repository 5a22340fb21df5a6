import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/**
 * Hostile image files for the upload and worker hardening tests, built from scratch (no external
 * samples): each is the smallest file that exercises one attack.
 */

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A PNG whose header says width×height (8-bit grey) with only a few rows of data: a decompression bomb. */
export function pngBomb(width = 50_000, height = 50_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.alloc((width + 1) * 4); // 4 rows of filter byte 0 + zeros
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(rows, { level: 9 })), pngChunk('IEND', Buffer.alloc(0))]);
}

/** A real JPEG with its SOF dimensions rewritten to width×height: the header promises a bomb, the data is tiny. */
export async function jpegClaiming(width: number, height: number): Promise<Buffer> {
  const jpeg = Buffer.from(await sharp({ create: { width: 64, height: 64, channels: 3, background: '#808080' } }).jpeg({ quality: 80 }).toBuffer());
  for (let i = 2; i < jpeg.length - 9; ) {
    if (jpeg[i] !== 0xff) break;
    const marker = jpeg[i + 1]!;
    const len = jpeg.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xc2) {
      jpeg.writeUInt16BE(height, i + 5);
      jpeg.writeUInt16BE(width, i + 7);
      return jpeg;
    }
    i += 2 + len;
  }
  throw new Error('no SOF marker');
}

/** A real photo-like JPEG cut off in the middle of its entropy-coded data. */
export async function truncatedJpeg(): Promise<Buffer> {
  const full = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#000000', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).jpeg({ quality: 90 }).toBuffer();
  return full.subarray(0, Math.floor(full.length / 2));
}

/** An animated image of `frames` frames (GIF, or WebP when `format` says so). */
export async function manyFrames(format: 'gif' | 'webp', frames: number, side = 64): Promise<Buffer> {
  const raw = Buffer.alloc(side * side * frames * 3);
  for (let f = 0; f < frames; f++) raw.fill(f % 256, f * side * side * 3, (f + 1) * side * side * 3);
  const img = sharp(raw, { raw: { width: side, height: side * frames, channels: 3, pageHeight: side } });
  return format === 'gif' ? img.gif().toBuffer() : img.webp({ quality: 50 }).toBuffer();
}

export async function tiff(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 64, channels: 3, background: '#808080' } }).tiff().toBuffer();
}

/** Inserts an APP1 segment right after the JPEG's SOI marker. */
function withApp1(jpeg: Buffer, payload: Buffer): Buffer {
  if (payload.length + 2 > 0xffff) throw new Error('APP1 payload too large');
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xffe1, 0);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, payload, jpeg.subarray(2)]);
}

/**
 * An EXIF bomb: IFD0 with thousands of entries whose counts and offsets point far outside the
 * segment, Exif and GPS sub-IFD pointers that loop back to IFD0, an IFD chain that loops, and an
 * IFD1 thumbnail that is itself a JPEG claiming 65000×65000 pixels.
 */
export async function exifBomb(base: Buffer): Promise<Buffer> {
  const thumb = await jpegClaiming(65_000, 65_000);
  const entries = 3000;
  const ifd0 = 8;
  const ifd0Size = 2 + entries * 12 + 4;
  const ifd1 = ifd0 + ifd0Size;
  const ifd1Size = 2 + 2 * 12 + 4;
  const thumbAt = ifd1 + ifd1Size;
  const tiffBuf = Buffer.alloc(thumbAt + thumb.length);
  tiffBuf.write('II', 0, 'ascii');
  tiffBuf.writeUInt16LE(42, 2);
  tiffBuf.writeUInt32LE(ifd0, 4);
  tiffBuf.writeUInt16LE(entries, ifd0);
  for (let e = 0; e < entries; e++) {
    const at = ifd0 + 2 + e * 12;
    const tag = e === 0 ? 0x8769 : e === 1 ? 0x8825 : 0x010f + (e % 40); // Exif IFD, GPS IFD, then Make… repeated
    tiffBuf.writeUInt16LE(tag, at);
    tiffBuf.writeUInt16LE(e < 2 ? 4 : 2, at + 2); // LONG pointers, then ASCII
    tiffBuf.writeUInt32LE(e < 2 ? 1 : 0xfffffff0, at + 4); // absurd counts
    tiffBuf.writeUInt32LE(e < 2 ? ifd0 : 0xfffffff0, at + 8); // loops and out-of-range offsets
  }
  tiffBuf.writeUInt32LE(ifd1, ifd0 + 2 + entries * 12);
  tiffBuf.writeUInt16LE(2, ifd1);
  tiffBuf.writeUInt16LE(0x0201, ifd1 + 2); // JPEGInterchangeFormat
  tiffBuf.writeUInt16LE(4, ifd1 + 4);
  tiffBuf.writeUInt32LE(1, ifd1 + 6);
  tiffBuf.writeUInt32LE(thumbAt, ifd1 + 10);
  tiffBuf.writeUInt16LE(0x0202, ifd1 + 14); // JPEGInterchangeFormatLength
  tiffBuf.writeUInt16LE(4, ifd1 + 16);
  tiffBuf.writeUInt32LE(1, ifd1 + 18);
  tiffBuf.writeUInt32LE(thumb.length, ifd1 + 22);
  tiffBuf.writeUInt32LE(ifd0, ifd1 + 26); // the IFD chain loops back to IFD0
  thumb.copy(tiffBuf, thumbAt);
  return withApp1(base, Buffer.concat([Buffer.from('Exif\0\0', 'binary'), tiffBuf]));
}

/** A JPEG that is also an HTML page (in a COM segment) and a ZIP archive (appended after EOI). */
export function polyglot(base: Buffer): Buffer {
  const html = Buffer.from('<html><script>alert(document.domain)</script></html>');
  const com = Buffer.alloc(4);
  com.writeUInt16BE(0xfffe, 0);
  com.writeUInt16BE(html.length + 2, 2);
  // An empty ZIP: just the end-of-central-directory record.
  const zip = Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);
  return Buffer.concat([base.subarray(0, 2), com, html, base.subarray(2), zip]);
}

/** HTML first, a JPEG inside: must not pass as an image. */
export function htmlFirst(base: Buffer): Buffer {
  return Buffer.concat([Buffer.from('<!doctype html><html><body>'), base]);
}
