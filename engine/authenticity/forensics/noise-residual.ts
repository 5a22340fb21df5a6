import type { BlockMap } from './block-maps.js';

/**
 * Noise residual: the luma minus its 4-neighbour mean, summarised per block by its MEDIAN
 * absolute value. Edges and text strokes touch a minority of a block's pixels, so the median
 * follows the sensor noise and not the content. One camera gives one noise level across the
 * page; a pasted portrait or a re-typed field usually carries a different one (often none).
 */
const BINS_PER_UNIT = 8;
const MAX_BIN = 8 * BINS_PER_UNIT;

export function noiseResidualMap(luma: Float32Array, width: number, height: number, block: number): BlockMap {
  const cols = Math.floor(width / block);
  const rows = Math.floor(height / block);
  const values = new Float32Array(cols * rows);
  const hist = new Uint32Array(MAX_BIN + 1);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      hist.fill(0);
      let n = 0;
      const y0 = Math.max(1, r * block);
      const y1 = Math.min(height - 1, (r + 1) * block);
      const x0 = Math.max(1, c * block);
      const x1 = Math.min(width - 1, (c + 1) * block);
      for (let y = y0; y < y1; y++) {
        let i = y * width + x0;
        for (let x = x0; x < x1; x++, i++) {
          const d = Math.abs(luma[i]! - 0.25 * (luma[i - 1]! + luma[i + 1]! + luma[i - width]! + luma[i + width]!));
          hist[Math.min(MAX_BIN, Math.round(d * BINS_PER_UNIT))]!++;
          n++;
        }
      }
      let acc = 0;
      let k = 0;
      for (; k <= MAX_BIN; k++) {
        acc += hist[k]!;
        if (acc * 2 >= n) break;
      }
      values[r * cols + c] = k / BINS_PER_UNIT;
    }
  }
  return { cols, rows, size: block, values };
}
