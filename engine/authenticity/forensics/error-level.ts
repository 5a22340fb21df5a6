import sharp from 'sharp';
import type { RgbImage } from '../image/decode.js';
import type { BlockMap } from './block-maps.js';

/**
 * Error-level analysis: re-save at a fixed quality and measure how much each block changes.
 * Regions that went through a different compression history (a pasted portrait, a re-typed
 * field) settle differently from the rest. Text edges raise the error level everywhere, so the
 * map is also returned normalised by the block's own gradient energy.
 */
export interface ErrorLevelMaps {
  ela: BlockMap;
  /** ELA divided by (1 + local gradient energy): comparable between flat and textured blocks. */
  elaPerTexture: BlockMap;
  gradient: BlockMap;
  meanError: number;
}

export const BLOCK = 16;
const RESAVE_QUALITY = 90;

export async function errorLevelMaps(img: RgbImage, luma: Float32Array): Promise<ErrorLevelMaps> {
  const { width, height } = img;
  const resaved = await sharp(Buffer.from(img.rgb.buffer, img.rgb.byteOffset, img.rgb.length), {
    raw: { width, height, channels: 3 },
  })
    .jpeg({ quality: RESAVE_QUALITY, chromaSubsampling: '4:2:0' })
    .toBuffer();
  const back = await sharp(resaved).raw({ depth: 'uchar' }).toBuffer();
  const cols = Math.floor(width / BLOCK);
  const rows = Math.floor(height / BLOCK);
  const ela = new Float32Array(cols * rows);
  const grad = new Float32Array(cols * rows);
  let total = 0;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      let e = 0;
      let g = 0;
      for (let y = r * BLOCK; y < (r + 1) * BLOCK; y++) {
        let i = y * width + c * BLOCK;
        for (let x = 0; x < BLOCK; x++, i++) {
          const j = i * 3;
          e += Math.abs(img.rgb[j]! - back[j]!) + Math.abs(img.rgb[j + 1]! - back[j + 1]!) + Math.abs(img.rgb[j + 2]! - back[j + 2]!);
          if (x + 1 < BLOCK && y + 1 < height) g += Math.abs(luma[i + 1]! - luma[i]!) + Math.abs(luma[i + width]! - luma[i]!);
        }
      }
      const k = r * cols + c;
      ela[k] = e / (BLOCK * BLOCK * 3);
      grad[k] = g / (BLOCK * BLOCK);
      total += ela[k]!;
    }
  }
  const norm = new Float32Array(ela.length);
  for (let k = 0; k < ela.length; k++) norm[k] = ela[k]! / (1 + grad[k]! / 4);
  return {
    ela: { cols, rows, size: BLOCK, values: ela },
    elaPerTexture: { cols, rows, size: BLOCK, values: norm },
    gradient: { cols, rows, size: BLOCK, values: grad },
    meanError: ela.length ? total / ela.length : 0,
  };
}
