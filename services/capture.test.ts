import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../domain/errors.js';
import { jpegDimensions, sniffImage, validateImage } from './capture.js';

describe('upload image validation', () => {
  it('sniffs formats by magic bytes, not by name or declared type', async () => {
    const img = sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } });
    expect(sniffImage(await img.clone().jpeg().toBuffer())).toBe('jpeg');
    expect(sniffImage(await img.clone().png().toBuffer())).toBe('png');
    expect(sniffImage(await img.clone().webp().toBuffer())).toBe('webp');
    expect(sniffImage(Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic')]))).toBe('heic');
    expect(sniffImage(Buffer.from('GIF89a....'))).toBeNull();
  });

  it('refuses truncated images and images over the pixel limit before storing them', async () => {
    const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#abc' } }).jpeg().toBuffer();
    await expect(validateImage(jpeg, 1_000_000)).resolves.toMatchObject({ format: 'jpeg', width: 400, height: 300 });
    await expect(validateImage(jpeg, 100_000)).rejects.toMatchObject({ code: 'image_too_large' });
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length / 2));
    const err = await validateImage(truncated, 1_000_000).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('image_unreadable');
  });

  it("reads a JPEG's dimensions from its frame header as libvips does, EXIF thumbnails and all", async () => {
    const base = sharp({ create: { width: 333, height: 127, channels: 3, background: '#abc' } });
    // Baseline, progressive, with EXIF (APP1 before the frame header) and 4:4:4.
    const variants = [
      await base.clone().jpeg().toBuffer(),
      await base.clone().jpeg({ progressive: true }).toBuffer(),
      await base.clone().withExif({ IFD0: { Make: 'x', Model: 'y' } } as never).jpeg({ chromaSubsampling: '4:4:4' }).toBuffer(),
    ];
    // A thumbnail-like JPEG claiming 65000×65000 inside an APP1 segment must not be taken for the image's header.
    const fake = Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0xfd, 0xe8, 0xfd, 0xe8, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
    const app1 = Buffer.concat([Buffer.from([0xff, 0xe1]), Buffer.from([0, fake.length + 2]), fake]);
    const plain = variants[0]!;
    variants.push(Buffer.concat([plain.subarray(0, 2), app1, plain.subarray(2)]));
    for (const jpeg of variants) {
      const meta = await sharp(jpeg).metadata();
      expect(jpegDimensions(jpeg)).toEqual({ width: meta.width, height: meta.height });
      await expect(validateImage(jpeg, 1_000_000)).resolves.toMatchObject({ format: 'jpeg', width: 333, height: 127 });
    }
    // No frame header before the scan or the end: not a readable JPEG.
    expect(jpegDimensions(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toBeNull();
    expect(jpegDimensions(plain.subarray(0, 4))).toBeNull();
    await expect(validateImage(Buffer.from([0xff, 0xd8, 0xff, 0xd9]), 1_000_000)).rejects.toMatchObject({ code: 'image_unreadable' });
    // A header claiming 65000×65000 is refused by its numbers, before any decoding.
    const bomb = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0xfd, 0xe8, 0xfd, 0xe8]), Buffer.alloc(64)]);
    await expect(validateImage(bomb, 40_000_000)).rejects.toMatchObject({ code: 'image_too_large' });
  });
});
