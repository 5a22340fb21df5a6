/** In-place iterative radix-2 FFT on (re, im) of length n (power of two), and a 2-D wrapper. */
export function fft1d(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      // Plain temporaries: a destructuring swap allocates an array per swap on this hot path.
      const tr = re[i]!;
      re[i] = re[j]!;
      re[j] = tr;
      const ti = im[i]!;
      im[i] = im[j]!;
      im[j] = ti;
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    const wr = Math.cos(ang);
    const wi = Math.sin(ang);
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const a = i + k;
        const b = a + len / 2;
        const xr = re[b]! * cr - im[b]! * ci;
        const xi = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - xr;
        im[b] = im[a]! - xi;
        re[a] = re[a]! + xr;
        im[a] = im[a]! + xi;
        const t = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = t;
      }
    }
  }
}

/** Power spectrum |F|² of an n×n real patch (row-major), DC at index 0 (not shifted). */
export function powerSpectrum2d(patch: Float64Array, n: number): Float64Array {
  const re = Float64Array.from(patch);
  const im = new Float64Array(n * n);
  const rr = new Float64Array(n);
  const ri = new Float64Array(n);
  for (let y = 0; y < n; y++) {
    rr.set(re.subarray(y * n, y * n + n));
    ri.fill(0);
    fft1d(rr, ri);
    re.set(rr, y * n);
    im.set(ri, y * n);
  }
  for (let x = 0; x < n; x++) {
    for (let y = 0; y < n; y++) {
      rr[y] = re[y * n + x]!;
      ri[y] = im[y * n + x]!;
    }
    fft1d(rr, ri);
    for (let y = 0; y < n; y++) {
      re[y * n + x] = rr[y]!;
      im[y * n + x] = ri[y]!;
    }
  }
  const p = new Float64Array(n * n);
  for (let i = 0; i < p.length; i++) p[i] = re[i]! * re[i]! + im[i]! * im[i]!;
  return p;
}
