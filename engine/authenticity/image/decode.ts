import sharp, { type Metadata } from 'sharp';
import { AuthenticityError } from '../errors.js';
import type { AuthenticitySettings } from '../settings.js';

/**
 * Decoding for forensics. JPEG traces (block grid, quantisation) live in the stored pixel frame,
 * so we never auto-rotate and never resample the `native` view; the `small` view is a resampled
 * copy for global statistics (recapture cues, copy-move) where speed matters more than the grid.
 */
export interface RgbImage {
  width: number;
  height: number;
  /** Interleaved RGB, 8 bit. */
  rgb: Uint8Array;
}

export interface DecodedImage {
  format: 'jpeg' | 'png' | 'webp';
  /** Stored (un-rotated) size of the whole image. */
  width: number;
  height: number;
  orientation: number;
  /** Native-resolution crop for compression forensics; `left`/`top` are multiples of 8. */
  native: RgbImage & { left: number; top: number };
  /** Whole image downscaled so that its longer side is at most SMALL_SIDE. */
  small: RgbImage & { scale: number };
}

const SMALL_SIDE = 768;
/** Largest native region analysed: beyond this the cost grows with no gain for a centred document. */
const NATIVE_MAX_W = 2048;
const NATIVE_MAX_H = 1536;

export function sniffFormat(bytes: Uint8Array): 'jpeg' | 'png' | 'webp' | 'heif' | 'other' {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'png';
  if (bytes.length >= 12 && Buffer.from(bytes.subarray(0, 4)).toString('latin1') === 'RIFF' && Buffer.from(bytes.subarray(8, 12)).toString('latin1') === 'WEBP') return 'webp';
  if (bytes.length >= 12 && Buffer.from(bytes.subarray(4, 8)).toString('latin1') === 'ftyp') return 'heif';
  return 'other';
}

export async function decodeForForensics(bytes: Buffer, settings: AuthenticitySettings): Promise<DecodedImage> {
  if (bytes.length > settings.limits.maxBytes) throw new AuthenticityError('image_too_large', 'file exceeds the byte limit');
  const format = sniffFormat(bytes);
  if (format === 'heif') throw new AuthenticityError('unsupported_image_format', 'HEIC/HEIF is not supported; upload JPEG');
  if (format === 'other') throw new AuthenticityError('unsupported_image_format', 'not a JPEG, PNG or WebP image');
  const opts = { limitInputPixels: settings.limits.maxInputPixels, failOn: 'error' as const };
  let meta: Metadata;
  try {
    meta = await sharp(bytes, opts).metadata();
  } catch (err) {
    const tooLarge = err instanceof Error && /pixel limit/i.test(err.message);
    throw new AuthenticityError(tooLarge ? 'image_too_large' : 'image_unreadable', tooLarge ? 'image exceeds the pixel limit' : 'image could not be decoded');
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (Math.min(width, height) < settings.limits.minSide) throw new AuthenticityError('image_too_small', 'image is smaller than the minimum side');
  if (width * height > settings.limits.maxInputPixels) throw new AuthenticityError('image_too_large', 'image exceeds the pixel limit');

  const nw = Math.min(width, NATIVE_MAX_W) & ~7;
  const nh = Math.min(height, NATIVE_MAX_H) & ~7;
  const left = ((width - nw) >> 1) & ~7;
  const top = ((height - nh) >> 1) & ~7;
  const scale = Math.min(1, SMALL_SIDE / Math.max(width, height));
  const sw = Math.max(1, Math.round(width * scale));
  const sh = Math.max(1, Math.round(height * scale));
  try {
    const [native, small] = await Promise.all([
      sharp(bytes, opts)
        .extract({ left, top, width: nw, height: nh })
        .removeAlpha()
        .toColourspace('srgb')
        .raw({ depth: 'uchar' })
        .toBuffer({ resolveWithObject: true }),
      sharp(bytes, opts)
        .resize(sw, sh, { fit: 'fill', kernel: 'lanczos3' })
        .removeAlpha()
        .toColourspace('srgb')
        .raw({ depth: 'uchar' })
        .toBuffer({ resolveWithObject: true }),
    ]);
    if (native.info.channels !== 3 || small.info.channels !== 3) throw new Error('unexpected channel count');
    return {
      format,
      width,
      height,
      orientation: meta.orientation ?? 1,
      native: { width: nw, height: nh, left, top, rgb: new Uint8Array(native.data.buffer, native.data.byteOffset, native.data.length) },
      small: { width: small.info.width, height: small.info.height, scale: small.info.width / width, rgb: new Uint8Array(small.data.buffer, small.data.byteOffset, small.data.length) },
    };
  } catch (err) {
    if (err instanceof AuthenticityError) throw err;
    throw new AuthenticityError('image_unreadable', 'image could not be decoded');
  }
}

/** JFIF luma (the Y the JPEG codec quantised), as float. */
export function lumaOf(img: RgbImage): Float32Array {
  const n = img.width * img.height;
  const y = new Float32Array(n);
  const p = img.rgb;
  for (let i = 0, j = 0; i < n; i++, j += 3) y[i] = 0.299 * p[j]! + 0.587 * p[j + 1]! + 0.114 * p[j + 2]!;
  return y;
}
