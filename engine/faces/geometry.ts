import type { Affine, Point } from './image.js';

/**
 * Least-squares similarity transform (rotation, uniform scale, translation) mapping `from` onto
 * `to`, returned as an affine `to = M · from`. Used to map model template points back into the
 * image for face alignment.
 */
export function fitSimilarity(from: Point[], to: Point[]): Affine {
  // Unknowns a, b, tx, ty with  x' = a·x − b·y + tx,  y' = b·x + a·y + ty.
  const n = from.length;
  let sx = 0, sy = 0, su = 0, sv = 0, sxx = 0, sxu = 0, syv = 0, sxv = 0, syu = 0;
  for (let i = 0; i < n; i++) {
    const [x, y] = from[i]!;
    const [u, v] = to[i]!;
    sx += x; sy += y; su += u; sv += v;
    sxx += x * x + y * y;
    sxu += x * u; syv += y * v; sxv += x * v; syu += y * u;
  }
  const mx = sx / n, my = sy / n, mu = su / n, mv = sv / n;
  const varFrom = sxx / n - mx * mx - my * my;
  const a = ((sxu + syv) / n - (mx * mu + my * mv)) / varFrom;
  const b = ((sxv - syu) / n - (mx * mv - my * mu)) / varFrom;
  const tx = mu - a * mx + b * my;
  const ty = mv - b * mx - a * my;
  return [a, -b, tx, b, a, ty];
}

export function applyAffine(m: Affine, p: Point): Point {
  return [m[0] * p[0] + m[1] * p[1] + m[2], m[3] * p[0] + m[4] * p[1] + m[5]];
}

/** Solves the n×n system A·x = b by Gaussian elimination with partial pivoting; null if singular. */
export function solveLinear(A: number[][], b: number[]): number[] | null {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(M[r]![col]!) > Math.abs(M[pivot]![col]!)) pivot = r;
    if (Math.abs(M[pivot]![col]!) < 1e-12) return null;
    [M[col], M[pivot]] = [M[pivot]!, M[col]!];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = M[r]![col]! / M[col]![col]!;
      for (let k = col; k <= n; k++) M[r]![k]! -= f * M[col]![k]!;
    }
  }
  return M.map((row, i) => row[n]! / row[i]!);
}

/**
 * Least-squares homography (8 parameters, h33 = 1) mapping `from` to `to`; null when degenerate.
 * Coordinates should be normalised by the caller for numerical stability.
 */
export function fitHomography(from: Point[], to: Point[]): number[] | null {
  const AtA = Array.from({ length: 8 }, () => new Array<number>(8).fill(0));
  const Atb = new Array<number>(8).fill(0);
  const addRow = (row: number[], rhs: number) => {
    for (let i = 0; i < 8; i++) {
      Atb[i]! += row[i]! * rhs;
      for (let j = 0; j < 8; j++) AtA[i]![j]! += row[i]! * row[j]!;
    }
  };
  for (let i = 0; i < from.length; i++) {
    const [x, y] = from[i]!;
    const [u, v] = to[i]!;
    addRow([x, y, 1, 0, 0, 0, -u * x, -u * y], u);
    addRow([0, 0, 0, x, y, 1, -v * x, -v * y], v);
  }
  return solveLinear(AtA, Atb);
}

export function applyHomography(h: number[], p: Point): Point {
  const w = h[6]! * p[0] + h[7]! * p[1] + 1;
  return [(h[0]! * p[0] + h[1]! * p[1] + h[2]!) / w, (h[3]! * p[0] + h[4]! * p[1] + h[5]!) / w];
}

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}
