/**
 * Projective geometry on raw RGB pixels: sharp has affine transforms but no perspective warp,
 * and both the corpus (to simulate a tilted camera) and the reader (to flatten it) need one.
 */
export type Point = [number, number];
export interface RawImage { data: Buffer; width: number; height: number; channels: number }

/** 3×3 homography (row-major, h[8] = 1) mapping src[i] → dst[i], by Gaussian elimination. */
export function homography(src: Point[], dst: Point[]): number[] {
  const a: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = src[i]!;
    const [u, v] = dst[i]!;
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  for (let c = 0; c < 8; c++) {
    let p = c;
    for (let r = c + 1; r < 8; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[p]![c]!)) p = r;
    [a[c], a[p]] = [a[p]!, a[c]!];
    for (let r = 0; r < 8; r++) {
      if (r === c) continue;
      const f = a[r]![c]! / a[c]![c]!;
      for (let k = c; k < 9; k++) a[r]![k]! -= f * a[c]![k]!;
    }
  }
  return [...Array.from({ length: 8 }, (_, i) => a[i]![8]! / a[i]![i]!), 1];
}

export function apply(h: number[], [x, y]: Point): Point {
  const w = h[6]! * x + h[7]! * y + h[8]!;
  return [(h[0]! * x + h[1]! * y + h[2]!) / w, (h[3]! * x + h[4]! * y + h[5]!) / w];
}

/**
 * Output pixel (u, v) samples the source at H⁻¹(u, v); pass `toSource`, the map from output
 * to source coordinates, so callers never invert. Bilinear; outside pixels take `fill`.
 */
export function warp(src: RawImage, toSource: number[], width: number, height: number, fill: number[] = [0, 0, 0]): RawImage {
  const { data, width: sw, height: sh, channels: ch } = src;
  const out = Buffer.alloc(width * height * ch);
  // The matrix in locals and the sample offsets computed once per pixel, not per channel: this runs
  // on every document photo of every Case (a critical-path step). Same arithmetic, same pixels.
  const [h0, h1, h2, h3, h4, h5, h6, h7, h8] = toSource as [number, number, number, number, number, number, number, number, number];
  for (let v = 0; v < height; v++) {
    for (let u = 0; u < width; u++) {
      const w = h6 * u + h7 * v + h8;
      const x = (h0 * u + h1 * v + h2) / w;
      const y = (h3 * u + h4 * v + h5) / w;
      const o = (v * width + u) * ch;
      if (x < 0 || y < 0 || x > sw - 1 || y > sh - 1) {
        for (let c = 0; c < ch; c++) out[o + c] = fill[c] ?? 0;
        continue;
      }
      const x0 = Math.floor(x), y0 = Math.floor(y);
      const x1 = Math.min(x0 + 1, sw - 1), y1 = Math.min(y0 + 1, sh - 1);
      const fx = x - x0, fy = y - y0;
      // Products keep their left-to-right order ((p × gx) × gy), so every rounding is as before.
      const gx = 1 - fx, gy = 1 - fy;
      const i00 = (y0 * sw + x0) * ch, i10 = (y0 * sw + x1) * ch, i01 = (y1 * sw + x0) * ch, i11 = (y1 * sw + x1) * ch;
      for (let c = 0; c < ch; c++) {
        out[o + c] = Math.round(data[i00 + c]! * gx * gy + data[i10 + c]! * fx * gy + data[i01 + c]! * gx * fy + data[i11 + c]! * fx * fy);
      }
    }
  }
  return { data: out, width, height, channels: ch };
}
