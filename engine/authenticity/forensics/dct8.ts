/** Weight of pixel `x` (0..7) in the orthonormal 8-point DCT-II coefficient `u`. */
export function dctBasis(u: number, x: number): number {
  return 0.5 * (u === 0 ? Math.SQRT1_2 : 1) * Math.cos(((2 * x + 1) * u * Math.PI) / 16);
}

/** Orthonormal 8×8 DCT-II, separable, on a block read from a row-major float image. */
const C = new Float32Array(64);
for (let u = 0; u < 8; u++) for (let x = 0; x < 8; x++) C[u * 8 + x] = dctBasis(u, x);

const tmp = new Float32Array(64);

/** Writes the 64 coefficients (row-major u*8+v) of the block at (bx, by) minus 128 into `out`. */
export function dct8x8(img: Float32Array, stride: number, bx: number, by: number, out: Float32Array): void {
  // Rows first.
  for (let y = 0; y < 8; y++) {
    const row = (by + y) * stride + bx;
    for (let v = 0; v < 8; v++) {
      let s = 0;
      for (let x = 0; x < 8; x++) s += C[v * 8 + x]! * (img[row + x]! - 128);
      tmp[y * 8 + v] = s;
    }
  }
  for (let v = 0; v < 8; v++) {
    for (let u = 0; u < 8; u++) {
      let s = 0;
      for (let y = 0; y < 8; y++) s += C[u * 8 + y]! * tmp[y * 8 + v]!;
      out[u * 8 + v] = s;
    }
  }
}
