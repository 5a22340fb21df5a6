import { median } from './block-maps.js';
import { dctBasis } from './dct8.js';

/**
 * Shifted-grid lattice search: was the image JPEG-saved on a different 8×8 grid before its last
 * save? A crop between two saves (the usual editor path: open, crop, save) moves the first save's
 * block grid off the file's own, so the aligned double-quantisation and histogram features are
 * blind to it. But the first save left every block of ITS grid with DCT coefficients on integer
 * multiples of its quantisation steps, and a later save at similar or higher quality perturbs
 * them only a little. So for each of the 63 other grid phases we take the first three AC
 * coefficients ((0,1), (1,0), (1,1)) of every block of the decoded luma and ask how strongly they
 * cluster on a lattice of step 2…5: the phase coherence |Σ exp(2πi·c/step)| / √n over the blocks
 * whose coefficient is outside the zero bin. Document content gives every phase some coherence
 * (glyphs repeat), so each (frequency, step) is a robust z over the 63 phases. A first save shows
 * as one phase that stands out at all three frequencies at once; content almost never does.
 *
 * Measured on the generated corpus (2,288 images, engine/authenticity/README.md decision 11):
 * all three frequencies agree on one phase in 0 of 624 clean captures and in 48% of re-saves
 * made after a crop at a second quality ≥ the first. A coarser second save buries the lattice.
 */
const FREQUENCIES: readonly (readonly [number, number])[] = [
  [0, 1],
  [1, 0],
  [1, 1],
];
/** Step 6 is left out: a lattice of step 6 is also one of steps 2 and 3. */
const STEPS = [2, 3, 4, 5] as const;
/** Centre region searched (positions stay in the file's grid frame: offsets are multiples of 8). */
const MAX_WIDTH = 1024;
const MAX_HEIGHT = 768;
const MIN_BLOCKS = 50;
/** Phase bins of the lattice test (c/step modulo 1, in 64ths). */
const LUT_SIZE = 64;
const COS = new Float64Array(LUT_SIZE);
const SIN = new Float64Array(LUT_SIZE);
for (let i = 0; i < LUT_SIZE; i++) {
  COS[i] = Math.cos((2 * Math.PI * i) / LUT_SIZE);
  SIN[i] = Math.sin((2 * Math.PI * i) / LUT_SIZE);
}

const BASIS = [0, 1].map((u) => Float64Array.from({ length: 8 }, (_, x) => dctBasis(u, x)));

export interface ShiftedGridResult {
  available: boolean;
  /** Score of the most lattice-like phase other than the file's own (sum over frequencies of robust z). */
  best: number;
  /** How far it stands above the second best phase. */
  gap: number;
  /** Frequencies (of 3) whose own most lattice-like phase is that same phase. */
  agreement: number;
  /** The phase [row, column] of that grid in the analysed frame (evidence only). */
  phase: [number, number];
}


/** `luma` is the stored-frame luma of a region whose top-left corner is on the file's 8×8 grid. */
export function shiftedGridLattice(luma: Float32Array, width: number, height: number): ShiftedGridResult {
  const w = Math.min(width, MAX_WIDTH) & ~7;
  const h = Math.min(height, MAX_HEIGHT) & ~7;
  if (w < 64 || h < 64) return { available: false, best: 0, gap: 0, agreement: 0, phase: [0, 0] };
  const ox = ((width - w) >> 1) & ~7;
  const oy = ((height - h) >> 1) & ~7;
  const ow = w - 7; // block origins 0..w-8 horizontally
  const oh = h - 7;

  // Horizontal responses at every origin: basis 0 is a plain 8-sum (running), basis 1 is 8-tap.
  const [box, tap, coef] = scratch(h * ow);
  boxRows(luma, width, ox, oy, ow, h, box);
  filterRows(luma, width, ox, oy, ow, h, BASIS[1]!, tap);
  const horizontal = [box, tap];

  const nF = FREQUENCIES.length;
  const nS = STEPS.length;
  // coherence[(phase * nF + f) * nS + s]
  const coherence = new Float64Array(64 * nF * nS);
  // Per (grid phase, step): a histogram of c/step modulo 1; the phase coherence is read off it.
  const hist = new Int32Array(64 * nS * LUT_SIZE);
  for (let f = 0; f < nF; f++) {
    const [u, v] = FREQUENCIES[f]!;
    if (u === 0) boxColumns(horizontal[v]!, ow, oh, coef);
    else filterColumns(horizontal[v]!, ow, oh, BASIS[u]!, coef);
    hist.fill(0);
    accumulatePhases(coef, ow, oh, hist);
    for (let ph = 0; ph < 64; ph++) {
      for (let s = 0; s < nS; s++) {
        const base = (ph * nS + s) * LUT_SIZE;
        let re = 0;
        let im = 0;
        let n = 0;
        for (let k = 0; k < LUT_SIZE; k++) {
          const m = hist[base + k]!;
          re += m * COS[k]!;
          im += m * SIN[k]!;
          n += m;
        }
        coherence[(ph * nF + f) * nS + s] = n >= MIN_BLOCKS ? Math.hypot(re, im) / Math.sqrt(n) : 0;
      }
    }
  }

  // Robust z of each (frequency, step) over the 63 foreign phases; per phase and frequency the best step.
  const perPhase = new Float64Array(64 * nF);
  const column = new Float64Array(63);
  for (let f = 0; f < nF; f++) {
    for (let s = 0; s < nS; s++) {
      for (let ph = 1; ph < 64; ph++) column[ph - 1] = coherence[(ph * nF + f) * nS + s]!;
      const med = median(column);
      for (let i = 0; i < 63; i++) column[i] = Math.abs(column[i]! - med);
      const spread = median(column) + 1e-6;
      for (let ph = 1; ph < 64; ph++) {
        const z = (coherence[(ph * nF + f) * nS + s]! - med) / spread;
        const i = ph * nF + f;
        if (s === 0 || z > perPhase[i]!) perPhase[i] = z;
      }
    }
  }
  let best = -Infinity;
  let second = -Infinity;
  let bestPhase = 1;
  for (let ph = 1; ph < 64; ph++) {
    let score = 0;
    for (let f = 0; f < nF; f++) score += perPhase[ph * nF + f]!;
    if (score > best) {
      second = best;
      best = score;
      bestPhase = ph;
    } else if (score > second) second = score;
  }
  let agreement = 0;
  for (let f = 0; f < nF; f++) {
    let arg = 1;
    for (let ph = 2; ph < 64; ph++) if (perPhase[ph * nF + f]! > perPhase[arg * nF + f]!) arg = ph;
    if (arg === bestPhase) agreement++;
  }
  return { available: true, best, gap: best - second, agreement, phase: [bestPhase >> 3, bestPhase & 7] };
}

/**
 * One sequential pass over the coefficient map; each block origin adds c/step (mod 1, in 64ths)
 * to the histogram of its grid phase, for every step whose zero bin it is outside.
 * Unrolled over STEPS (2…5): this loop is most of the check's time.
 */
function accumulatePhases(coef: Float32Array, ow: number, oh: number, hist: Int32Array): void {
  const L = LUT_SIZE;
  const mask = L - 1;
  // + 2^20 keeps the operand positive, so truncation rounds half up like Math.round.
  const offset = 1048576.5;
  for (let y = 0; y < oh; y++) {
    const rowPhase = (y & 7) << 3;
    const row = y * ow;
    for (let x = 0; x < ow; x++) {
      const c = coef[row + x]!;
      const a = c < 0 ? -c : c;
      // Branch-free: a coefficient inside a step's zero bin adds 0 (the signs are coin flips, so
      // branches would mispredict half the time).
      const base = (rowPhase | (x & 7)) * 4 * L;
      hist[base + (((c * (L / 2) + offset) | 0) & mask)]! += +(a >= 1);
      hist[base + L + (((c * (L / 3) + offset) | 0) & mask)]! += +(a >= 1.5);
      hist[base + 2 * L + (((c * (L / 4) + offset) | 0) & mask)]! += +(a >= 2);
      hist[base + 3 * L + (((c * (L / 5) + offset) | 0) & mask)]! += +(a >= 2.5);
    }
  }
}

/**
 * Three 3-MB work maps, kept between calls: allocating them per image cost more in garbage
 * collection than the filters themselves. Safe because the search is synchronous.
 */
let buffers: Float32Array[] = [];
export function scratch(length: number): [Float32Array, Float32Array, Float32Array] {
  if (!buffers[0] || buffers[0].length < length) buffers = [0, 1, 2].map(() => new Float32Array(length));
  return [buffers[0]!.subarray(0, length), buffers[1]!.subarray(0, length), buffers[2]!.subarray(0, length)];
}

export function filterRows(luma: Float32Array, width: number, ox: number, oy: number, ow: number, h: number, taps: Float64Array, out: Float32Array): void {
  const [t0, t1, t2, t3, t4, t5, t6, t7] = taps as unknown as number[];
  for (let y = 0; y < h; y++) {
    const src = (oy + y) * width + ox;
    const dst = y * ow;
    for (let x = 0; x < ow; x++) {
      const p = src + x;
      out[dst + x] =
        t0! * luma[p]! + t1! * luma[p + 1]! + t2! * luma[p + 2]! + t3! * luma[p + 3]! +
        t4! * luma[p + 4]! + t5! * luma[p + 5]! + t6! * luma[p + 6]! + t7! * luma[p + 7]!;
    }
  }
}

export function boxRows(luma: Float32Array, width: number, ox: number, oy: number, ow: number, h: number, out: Float32Array): void {
  const k = BASIS[0]![0]!;
  for (let y = 0; y < h; y++) {
    const src = (oy + y) * width + ox;
    const dst = y * ow;
    let sum = 0;
    for (let x = 0; x < 8; x++) sum += luma[src + x]!;
    out[dst] = k * sum;
    for (let x = 1; x < ow; x++) {
      sum += luma[src + x + 7]! - luma[src + x - 1]!;
      out[dst + x] = k * sum;
    }
  }
}

export function filterColumns(m: Float32Array, ow: number, oh: number, taps: Float64Array, out: Float32Array): void {
  const [t0, t1, t2, t3, t4, t5, t6, t7] = taps as unknown as number[];
  for (let y = 0; y < oh; y++) {
    const r = y * ow;
    for (let x = 0; x < ow; x++) {
      const p = r + x;
      out[p] =
        t0! * m[p]! + t1! * m[p + ow]! + t2! * m[p + 2 * ow]! + t3! * m[p + 3 * ow]! +
        t4! * m[p + 4 * ow]! + t5! * m[p + 5 * ow]! + t6! * m[p + 6 * ow]! + t7! * m[p + 7 * ow]!;
    }
  }
}

export function boxColumns(m: Float32Array, ow: number, oh: number, out: Float32Array): void {
  const k = BASIS[0]![0]!;
  const sum = new Float64Array(ow);
  for (let y = 0; y < 8; y++) for (let x = 0; x < ow; x++) sum[x] = sum[x]! + m[y * ow + x]!;
  for (let x = 0; x < ow; x++) out[x] = k * sum[x]!;
  for (let y = 1; y < oh; y++) {
    const add = (y + 7) * ow;
    const drop = (y - 1) * ow;
    for (let x = 0; x < ow; x++) {
      sum[x] = sum[x]! + m[add + x]! - m[drop + x]!;
      out[y * ow + x] = k * sum[x]!;
    }
  }
}
