/**
 * Copy-move: the same textured patch appearing twice in one image (a digit or a stamp copied
 * over another). Block-matching on a downscaled luma: describe every 8×8 block at every
 * position by a short quantised descriptor, sort the descriptors so that equal blocks become
 * neighbours, and vote for the displacement between matching pairs. A real copy gives many
 * pairs with one common displacement; repeated print patterns give many small scattered votes.
 */
export interface CopyMoveResult {
  /** Votes for the best displacement (minus its double, see below) divided by the number of textured blocks. */
  score: number;
  votes: number;
  texturedBlocks: number;
  shift: [number, number] | null;
}

const B = 8;
// Every position: a copy lands at an arbitrary offset, and a stepped grid would only see
// copies whose shift is a multiple of the step. The caller passes a small image to stay fast.
const STEP = 1;
const MIN_STD = 6;
const MIN_SHIFT = 16;
/** Block indices must stay below this (2^20 ≈ 1 M blocks) for the packed sort key to be exact. */
const INDEX_SPAN = 2 ** 20;

export function detectCopyMove(luma: Float32Array, width: number, height: number): CopyMoveResult {
  // Descriptor packed into one integer (mean: 6 bits, four quadrant contrasts: 5 bits each),
  // then combined with the block index into one float so that a native typed-array sort groups
  // equal descriptors: much faster than sorting arrays of tuples.
  const cols = Math.floor((width - B) / STEP) + 1;
  const rows = Math.floor((height - B) / STEP) + 1;
  if (cols <= 0 || rows <= 0 || cols * rows >= INDEX_SPAN) return { score: 0, votes: 0, texturedBlocks: 0, shift: null };
  // Summed-area tables make every 4×4 quadrant sum and the block variance O(1).
  const W1 = width + 1;
  const sat = new Float64Array(W1 * (height + 1));
  const sat2 = new Float64Array(W1 * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    let row2 = 0;
    for (let x = 0; x < width; x++) {
      const v = luma[y * width + x]!;
      row += v;
      row2 += v * v;
      sat[(y + 1) * W1 + x + 1] = sat[y * W1 + x + 1]! + row;
      sat2[(y + 1) * W1 + x + 1] = sat2[y * W1 + x + 1]! + row2;
    }
  }
  const rect = (t: Float64Array, x: number, y: number, w: number, h: number) =>
    t[(y + h) * W1 + x + w]! - t[y * W1 + x + w]! - t[(y + h) * W1 + x]! + t[y * W1 + x]!;
  const packed = new Float64Array(cols * rows);
  let n = 0;
  for (let by = 0; by < rows; by++) {
    const y = by * STEP;
    for (let bx = 0; bx < cols; bx++) {
      const x = bx * STEP;
      const s = rect(sat, x, y, B, B);
      const mean = s / 64;
      const std = Math.sqrt(Math.max(0, rect(sat2, x, y, B, B) / 64 - mean * mean));
      if (std < MIN_STD) continue;
      // Quadrant contrasts are normalised by the block's own spread, so a copy that was also
      // brightened a little still matches.
      let key = Math.min(63, Math.round(mean / 6));
      for (let k = 0; k < 4; k++) {
        const qs = rect(sat, x + (k & 1) * 4, y + (k >> 1) * 4, 4, 4);
        key = key * 32 + Math.max(0, Math.min(31, Math.round(((qs / 16 - mean) / std) * 6) + 16));
      }
      packed[n++] = key * INDEX_SPAN + by * cols + bx;
    }
  }
  if (n < 50) return { score: 0, votes: 0, texturedBlocks: n, shift: null };
  const sorted = packed.subarray(0, n).sort();
  const votes = new Map<number, number>();
  const KEY = INDEX_SPAN;
  for (let i = 0; i < n; i++) {
    const ka = Math.floor(sorted[i]! / KEY);
    const a = sorted[i]! - ka * KEY;
    for (let j = i + 1; j < Math.min(n, i + 6); j++) {
      const kb = Math.floor(sorted[j]! / KEY);
      if (kb !== ka) break;
      const b = sorted[j]! - kb * KEY;
      let dx = ((b % cols) - (a % cols)) * STEP;
      let dy = (Math.floor(b / cols) - Math.floor(a / cols)) * STEP;
      if (dx * dx + dy * dy < MIN_SHIFT * MIN_SHIFT) continue;
      if (dx < 0 || (dx === 0 && dy < 0)) {
        dx = -dx;
        dy = -dy;
      }
      const key = Math.round(dx / STEP) * 4096 + Math.round(dy / STEP) + 2048;
      votes.set(key, (votes.get(key) ?? 0) + 1);
    }
  }
  // A periodic print pattern votes for its period s and also for 2s; a copied region votes for
  // one displacement only. Score each displacement by its votes minus those of its double.
  let bestKey = -1;
  let best = 0;
  for (const [k, v] of votes) {
    const qx = Math.floor(k / 4096);
    const qy = (k % 4096) - 2048;
    const doubled = votes.get(2 * qx * 4096 + 2 * qy + 2048) ?? 0;
    const adjusted = v - doubled;
    if (adjusted > best) {
      best = adjusted;
      bestKey = k;
    }
  }
  const shift: [number, number] | null = bestKey >= 0 ? [Math.floor(bestKey / 4096) * STEP, ((bestKey % 4096) - 2048) * STEP] : null;
  return { score: best / n, votes: best, texturedBlocks: n, shift };
}
