/**
 * Per-block statistics shared by the local-inconsistency detectors: a map of one value per
 * B×B block, robust standardisation against the image's own distribution, and the size of the
 * largest 4-connected cluster of outlying blocks (an edit is a coherent region, noise is not).
 */
export interface BlockMap {
  cols: number;
  rows: number;
  size: number;
  values: Float32Array;
}

/** Median; a Float64Array is kept in double precision, anything else is taken as float32. */
export function median(values: Float32Array | Float64Array | number[]): number {
  const a = values instanceof Float64Array ? Float64Array.from(values).sort() : Float32Array.from(values).sort();
  if (a.length === 0) return 0;
  const m = a.length >> 1;
  return a.length % 2 ? a[m]! : (a[m - 1]! + a[m]!) / 2;
}

export function quantile(values: Float32Array, q: number): number {
  const a = Float32Array.from(values).sort();
  if (a.length === 0) return 0;
  return a[Math.min(a.length - 1, Math.max(0, Math.floor(q * (a.length - 1))))]!;
}

/** Robust z-scores: (x − median) / (1.4826 · MAD), with a floor on the spread. */
export function robustZ(map: BlockMap, floor = 1e-3): Float32Array {
  const med = median(map.values);
  const dev = new Float32Array(map.values.length);
  for (let i = 0; i < dev.length; i++) dev[i] = Math.abs(map.values[i]! - med);
  const mad = Math.max(floor, 1.4826 * median(dev));
  const z = new Float32Array(map.values.length);
  for (let i = 0; i < z.length; i++) z[i] = (map.values[i]! - med) / mad;
  return z;
}

export function largestCluster(z: Float32Array, cols: number, rows: number, threshold: number): number {
  const seen = new Uint8Array(z.length);
  const stack: number[] = [];
  let best = 0;
  for (let i = 0; i < z.length; i++) {
    if (seen[i] || z[i]! < threshold) continue;
    let size = 0;
    stack.push(i);
    seen[i] = 1;
    while (stack.length) {
      const j = stack.pop()!;
      size++;
      const x = j % cols;
      const y = (j - x) / cols;
      const nbs = [x > 0 ? j - 1 : -1, x < cols - 1 ? j + 1 : -1, y > 0 ? j - cols : -1, y < rows - 1 ? j + cols : -1];
      for (const k of nbs) {
        if (k >= 0 && !seen[k] && z[k]! >= threshold) {
          seen[k] = 1;
          stack.push(k);
        }
      }
    }
    if (size > best) best = size;
  }
  return best;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Mean of `values` over the blocks whose centre lies inside `box` (pixel units of the map's image). */
export function meanInBox(values: Float32Array, map: BlockMap, box: Box): number | null {
  let s = 0;
  let n = 0;
  for (let r = 0; r < map.rows; r++) {
    const cy = r * map.size + map.size / 2;
    if (cy < box.y || cy >= box.y + box.height) continue;
    for (let c = 0; c < map.cols; c++) {
      const cx = c * map.size + map.size / 2;
      if (cx < box.x || cx >= box.x + box.width) continue;
      s += values[r * map.cols + c]!;
      n++;
    }
  }
  return n ? s / n : null;
}
