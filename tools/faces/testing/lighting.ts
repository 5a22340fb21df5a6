import sharp from 'sharp';
import type { Box } from '../../../engine/faces/image.js';
import { seededRandom } from './captures.js';

/**
 * Room-light changes applied to real frames (tests and the faces v7 tuning bench only): what an
 * applicant's own camera would record in a room lit another colour, or dimly. Light scales in linear
 * space, so both work there; the result is re-encoded as the camera would (JPEG).
 */

const LINEAR = Float64Array.from({ length: 256 }, (_, v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});
const toSrgb = (l: number) => {
  const c = Math.min(1, Math.max(0, l));
  return 255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);
};

/** Coloured light: per-channel linear gains (e.g. [1.35, 1, 0.55] orange), on the whole frame or only inside `region` (a screen's own white point). */
export const TINTS = {
  orange: [1.35, 1.0, 0.55],
  warm: [1.2, 1.0, 0.75],
  cool: [0.8, 1.0, 1.3],
  green: [0.85, 1.15, 0.85],
} as const satisfies Record<string, readonly [number, number, number]>;

export async function tintFrame(jpeg: Buffer, gains: readonly [number, number, number], region?: Box): Promise<Buffer> {
  const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const lut = gains.map((g) => Uint8Array.from({ length: 256 }, (_, v) => Math.round(toSrgb(LINEAR[v]! * g))));
  const out = Buffer.from(data);
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      if (region && (x < region.x || x >= region.x + region.width || y < region.y || y >= region.y + region.height)) continue;
      const i = (y * info.width + x) * 3;
      for (let c = 0; c < 3; c++) out[i + c] = lut[c]![data[i + c]!]!;
    }
  }
  return sharp(out, { raw: { width: info.width, height: info.height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
}

/**
 * A dim room: linear light × `scale` (0.12 ≈ 3 stops under, 0.05 ≈ 4.3 stops), then sensor noise
 * (Gaussian, `noise` sRGB levels, seeded) and a webcam's JPEG quality (75).
 */
export const DIM_LEVELS = { dim: { scale: 0.12, noise: 2 }, dark: { scale: 0.05, noise: 3 } } as const;

export async function dimFrames(frames: Buffer[], level: { scale: number; noise: number }, seed = 42): Promise<Buffer[]> {
  const rand = seededRandom(seed);
  const lut = Float64Array.from({ length: 256 }, (_, v) => toSrgb(LINEAR[v]! * level.scale));
  const out: Buffer[] = [];
  for (const jpeg of frames) {
    const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const px = Buffer.alloc(data.length);
    for (let i = 0; i < data.length; i++) {
      const n = level.noise ? level.noise * Math.sqrt(-2 * Math.log(rand() + 1e-9)) * Math.cos(2 * Math.PI * rand()) : 0;
      px[i] = Math.max(0, Math.min(255, Math.round(lut[data[i]!]! + n)));
    }
    out.push(await sharp(px, { raw: { width: info.width, height: info.height, channels: 3 } }).jpeg({ quality: 75 }).toBuffer());
  }
  return out;
}
