import sharp, { type Sharp } from 'sharp';
import type { DocumentImage } from './types.js';

/** Small helpers between sharp and raw RGB buffers, shared by the generators. */
export function rawInput(img: { width: number; height: number; rgb: Uint8Array }) {
  return sharp(Buffer.from(img.rgb.buffer, img.rgb.byteOffset, img.rgb.length), {
    raw: { width: img.width, height: img.height, channels: 3 },
  });
}

export async function decodeRgb(bytes: Buffer | Uint8Array): Promise<{ width: number; height: number; rgb: Uint8Array }> {
  const { data, info } = await sharp(bytes).removeAlpha().toColourspace('srgb').raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, rgb: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

export async function toRaw(pipeline: Sharp): Promise<{ width: number; height: number; rgb: Uint8Array }> {
  const { data, info } = await pipeline.removeAlpha().raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, rgb: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

export function cloneDoc(doc: DocumentImage): DocumentImage {
  return { ...doc, rgb: Uint8Array.from(doc.rgb), zones: doc.zones.map((z) => ({ ...z })) };
}

export function clamp255(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
}
