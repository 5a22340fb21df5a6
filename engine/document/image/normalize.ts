import sharp from 'sharp';
import { DocumentEngineError } from '../ocr/workers.js';
import { decodeBmp, isBmp } from './bmp.js';

export interface WorkingImage { data: Buffer; width: number; height: number; channels: 3; sourceFormat: string }

const ACCEPTED = new Set(['jpeg', 'png', 'webp']);

/**
 * Decodes an upload into upright RGB pixels. Limits are checked before decoding (sharp
 * `limitInputPixels`) so that a decompression bomb costs nothing. HEIC is refused by name: the
 * prebuilt sharp cannot decode it, and the capture page can ask the phone for JPEG instead.
 */
export async function normalizeImage(bytes: Buffer, opts: { maxInputPixels: number; maxInputBytes: number; workingMaxSide: number; acceptBmp?: boolean }): Promise<WorkingImage> {
  if (bytes.length > opts.maxInputBytes) throw new DocumentEngineError('image_too_large', 'upload exceeds the byte limit');
  if (opts.acceptBmp && isBmp(bytes)) {
    const bmp = decodeBmp(bytes, opts.maxInputPixels);
    if (!bmp) throw new DocumentEngineError('unsupported_image_format', 'BMP variant not supported; send JPEG, PNG or WebP');
    const { data, info } = await sharp(bmp.data, { raw: { width: bmp.width, height: bmp.height, channels: 3 } })
      .resize(opts.workingMaxSide, opts.workingMaxSide, { fit: 'inside', withoutEnlargement: true }).raw().toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: 3, sourceFormat: 'bmp' };
  }
  if (bytes.length > 12 && bytes.subarray(4, 8).toString('latin1') === 'ftyp') {
    const brand = bytes.subarray(8, 12).toString('latin1');
    if (/^(heic|heix|hevc|heim|heis|mif1|msf1|avif)$/.test(brand)) throw new DocumentEngineError('unsupported_image_format', `HEIF/AVIF (${brand}) is not accepted; send JPEG, PNG or WebP`);
  }
  let format: string | undefined;
  try {
    format = (await sharp(bytes, { limitInputPixels: opts.maxInputPixels }).metadata()).format;
  } catch {
    throw new DocumentEngineError('unsupported_image_format', 'bytes are not a decodable image');
  }
  if (!format || !ACCEPTED.has(format)) throw new DocumentEngineError('unsupported_image_format', `${format ?? 'unknown'} is not accepted; send JPEG, PNG or WebP`);
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: opts.maxInputPixels, failOn: 'error' })
      .rotate() // EXIF orientation
      .resize(opts.workingMaxSide, opts.workingMaxSide, { fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: 3, sourceFormat: format };
  } catch (err) {
    const msg = String((err as Error).message);
    if (/pixel limit/i.test(msg)) throw new DocumentEngineError('image_too_large', 'image exceeds the pixel limit');
    throw new DocumentEngineError('image_unreadable', 'image could not be decoded');
  }
}
