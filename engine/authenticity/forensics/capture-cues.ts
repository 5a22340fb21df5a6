import type { RgbImage } from '../image/decode.js';

/**
 * Spatial recapture cues on the downscaled image: a dark screen bezel or frame along the edges,
 * specular glare (clipped, colourless highlights), the colour gamut (prints lose saturation and
 * lift the blacks, screens shift white balance), and overall sharpness (every extra optical
 * hop blurs).
 */
export interface CaptureCues {
  darkBorder: number;
  darkBorderSides: number;
  glareShare: number;
  glareTileMax: number;
  saturationP50: number;
  saturationP95: number;
  blackLevel: number;
  whiteLevel: number;
  blueCast: number;
  colorfulness: number;
  sharpness: number;
}

function percentile(hist: Uint32Array, total: number, q: number): number {
  let acc = 0;
  const target = q * total;
  for (let i = 0; i < hist.length; i++) {
    acc += hist[i]!;
    if (acc >= target) return i;
  }
  return hist.length - 1;
}

export function captureCues(img: RgbImage): CaptureCues {
  const { width: w, height: h, rgb } = img;
  const n = w * h;
  const luma = new Float32Array(n);
  const lumaHist = new Uint32Array(256);
  const satHist = new Uint32Array(101);
  let glare = 0;
  let sumR = 0;
  let sumB = 0;
  let rgSum = 0;
  let rgSq = 0;
  let ybSum = 0;
  let ybSq = 0;
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    const r = rgb[j]!;
    const g = rgb[j + 1]!;
    const b = rgb[j + 2]!;
    const y = 0.299 * r + 0.587 * g + 0.114 * b;
    luma[i] = y;
    lumaHist[Math.min(255, Math.round(y))]!++;
    const mx = Math.max(r, g, b);
    const mn = Math.min(r, g, b);
    const sat = mx > 0 ? (mx - mn) / mx : 0;
    satHist[Math.round(sat * 100)]!++;
    if (y > 245 && sat < 0.08) glare++;
    sumR += r;
    sumB += b;
    const rg = r - g;
    const yb = 0.5 * (r + g) - b;
    rgSum += rg;
    rgSq += rg * rg;
    ybSum += yb;
    ybSq += yb * yb;
  }
  // Glare concentrates: the brightest 32×32 tile says more than the global share.
  const T = 32;
  let tileMax = 0;
  for (let ty = 0; ty + T <= h; ty += T) {
    for (let tx = 0; tx + T <= w; tx += T) {
      let c = 0;
      for (let y = ty; y < ty + T; y++) for (let x = tx; x < tx + T; x++) if (luma[y * w + x]! > 245) c++;
      tileMax = Math.max(tileMax, c / (T * T));
    }
  }
  // Border strips: share of dark pixels on each side.
  const sw = Math.max(2, Math.round(0.04 * Math.min(w, h)));
  const sideDark = (x0: number, y0: number, x1: number, y1: number) => {
    let dark = 0;
    let tot = 0;
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++, tot++) if (luma[y * w + x]! < 40) dark++;
    return tot ? dark / tot : 0;
  };
  const sides = [sideDark(0, 0, w, sw), sideDark(0, h - sw, w, h), sideDark(0, 0, sw, h), sideDark(w - sw, 0, w, h)].sort((a, b) => b - a);
  let lap = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      lap += Math.abs(4 * luma[i]! - luma[i - 1]! - luma[i + 1]! - luma[i - w]! - luma[i + w]!);
    }
  }
  const black = percentile(lumaHist, n, 0.01);
  const white = percentile(lumaHist, n, 0.99);
  const rgMean = rgSum / n;
  const ybMean = ybSum / n;
  const colorfulness =
    Math.sqrt(Math.max(0, rgSq / n - rgMean * rgMean) + Math.max(0, ybSq / n - ybMean * ybMean)) +
    0.3 * Math.sqrt(rgMean * rgMean + ybMean * ybMean);
  return {
    darkBorder: (sides[0]! + sides[1]!) / 2,
    darkBorderSides: sides.filter((s) => s > 0.6).length,
    glareShare: glare / n,
    glareTileMax: tileMax,
    saturationP50: percentile(satHist, n, 0.5) / 100,
    saturationP95: percentile(satHist, n, 0.95) / 100,
    blackLevel: black,
    whiteLevel: white,
    blueCast: (sumB - sumR) / n,
    colorfulness,
    sharpness: lap / ((w - 2) * (h - 2)) / Math.max(8, white - black) * 100,
  };
}
