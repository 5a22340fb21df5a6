import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../domain/errors.js';
import { sniffImage, validateImage } from './capture.js';

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
});
