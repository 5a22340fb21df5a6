/**
 * JPEG block-grid phase. Each JPEG save leaves slightly stronger luminance steps across its
 * 8×8 block boundaries. The last save's grid sits at phase 7|0 of the stored frame; a save made
 * before a crop leaves a second, shifted grid. We measure the mean absolute step at each of the
 * 8 column and row phases and report the current grid's strength and the strongest other phase.
 */
export interface BlockGridResult {
  /** Step at the current boundary phase relative to the mean of the others (≈1: no blocking). */
  current: number;
  /** Strongest non-current phase relative to the median phase (≈1: no second grid). */
  shifted: number;
}

export function blockGrid(luma: Float32Array, width: number, height: number): BlockGridResult {
  const col = new Float64Array(8);
  const row = new Float64Array(8);
  for (let y = 0; y < height - 1; y += 2) {
    const base = y * width;
    for (let x = 0; x < width - 1; x++) {
      col[x & 7] = col[x & 7]! + Math.min(20, Math.abs(luma[base + x + 1]! - luma[base + x]!));
    }
  }
  for (let y = 0; y < height - 1; y++) {
    const base = y * width;
    for (let x = 0; x < width; x += 2) {
      row[y & 7] = row[y & 7]! + Math.min(20, Math.abs(luma[base + width + x]! - luma[base + x]!));
    }
  }
  const measure = (a: Float64Array) => {
    const others = Array.from(a.subarray(0, 7));
    const meanOthers = others.reduce((s, v) => s + v, 0) / 7 || 1;
    const sorted = [...others].sort((p, q) => p - q);
    const med = sorted[3]! || 1;
    return { current: a[7]! / meanOthers, shifted: sorted[6]! / med };
  };
  const c = measure(col);
  const r = measure(row);
  return { current: (c.current + r.current) / 2, shifted: Math.max(c.shifted, r.shifted) };
}
