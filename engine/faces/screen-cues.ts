import { scaleBox, type Box, type Point, type RgbImage } from './image.js';

/**
 * Image cues of a face shown on a screen or pasted onto another head, measured on one frame.
 * Each is a plain measurement; `liveness-v2.ts` turns them into signals with thresholds and
 * fuses them. Gray = ITU-R 601 luma on the decoded 8-bit frame.
 */

const gray = (img: RgbImage, x: number, y: number) => {
  const i = (y * img.width + x) * 3;
  return 0.299 * img.data[i]! + 0.587 * img.data[i + 1]! + 0.114 * img.data[i + 2]!;
};

/**
 * Luma of the rectangle [x0 − 2, x1 + 2) × [y0 − 2, y1 + 2) (inside the image), computed once per
 * pixel: the edge scans below read each pixel up to four times, each time the same `gray` value.
 * `at(x, y)` is the row-major index of (x, y).
 */
function grayPlane(img: RgbImage, x0: number, y0: number, x1: number, y1: number): { g: Float64Array; at: (x: number, y: number) => number; stride: number } {
  const ox = x0 - 2, oy = y0 - 2, stride = Math.max(0, x1 - x0 + 4), rows = Math.max(0, y1 - y0 + 4);
  const g = new Float64Array(stride * rows);
  const d = img.data;
  for (let y = 0, o = 0; y < rows; y++) {
    for (let x = 0, i = ((oy + y) * img.width + ox) * 3; x < stride; x++, o++, i += 3) g[o] = 0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]!;
  }
  return { g, stride, at: (x, y) => (y - oy) * stride + (x - ox) };
}

/** A luma step counts when it exceeds this many grey levels (screenBorders, screenFrame). */
const EDGE_STEP = 24;

/**
 * screenBorders' scan: the longest run of a same-sign step (`g[plus + k·step] − g[minus + k·step]`
 * beyond ±EDGE_STEP) over `len` positions, gaps of 2 allowed. A function of the plane, not a closure
 * per scan line (the same differences in the same order).
 */
function signedRun(g: Float64Array, plus: number, minus: number, step: number, len: number): number {
  let best = 0, cur = 0, sign = 0, gap = 0;
  for (let k = 0, o = 0; k < len; k++, o += step) {
    const d = g[plus + o]! - g[minus + o]!;
    const s = d > EDGE_STEP ? 1 : d < -EDGE_STEP ? -1 : 0;
    if (s !== 0 && (s === sign || cur === 0)) {
      sign = s;
      cur += 1 + gap;
      gap = 0;
    } else if (cur > 0 && gap < 2) gap++;
    else {
      cur = s !== 0 ? 1 : 0;
      sign = s;
      gap = 0;
    }
    if (cur > best) best = cur;
  }
  return best;
}

/** screenFrame's scan: the longest run of steps of one polarity (+1: rising along the scan's normal), 2-px gaps allowed. */
function polarRun(g: Float64Array, plus: number, minus: number, step: number, len: number, polarity: 1 | -1): number {
  let best = 0, cur = 0, gap = 0;
  for (let k = 0, o = 0; k < len; k++, o += step) {
    if (polarity * (g[plus + o]! - g[minus + o]!) > EDGE_STEP) {
      cur += 1 + gap;
      gap = 0;
    } else if (cur > 0 && gap < 2) gap++;
    else {
      cur = 0;
      gap = 0;
    }
    if (cur > best) best = cur;
  }
  return best;
}

export interface ScreenBorders {
  /** Sides (top, bottom, left, right of the face) with a long straight edge, 0..4. */
  sides: number;
  /** Longest straight edge on each side, in face widths. */
  lengths: [number, number, number, number];
}

/**
 * Straight edges around the face: a phone or monitor showing a face puts its bezel, a long
 * straight light/dark boundary, on several sides of it, a room rarely on three or four at once.
 * Rows above and below the face and columns left and right of it inside 3 × the face box are
 * scanned for the longest run of a same-sign gradient ≥ 24 grey levels (allowing 2-pixel gaps).
 */
export function screenBorders(img: RgbImage, face: Box, minLength: number): ScreenBorders {
  const r = scaleBox(face, 3);
  const x0 = Math.max(2, Math.floor(r.x)), x1 = Math.min(img.width - 3, Math.ceil(r.x + r.width));
  const y0 = Math.max(2, Math.floor(r.y)), y1 = Math.min(img.height - 3, Math.ceil(r.y + r.height));
  const fx0 = Math.floor(face.x), fx1 = Math.ceil(face.x + face.width), fy0 = Math.floor(face.y), fy1 = Math.ceil(face.y + face.height);
  let top = 0, bottom = 0, left = 0, right = 0;
  // Luma read from a plane computed once (the same values `gray` gives: same-outputs.test.ts).
  const { g, at, stride } = grayPlane(img, x0, y0, x1, y1);
  for (let y = y0; y < y1; y++) {
    if (y >= fy0 - 2 && y <= fy1 + 2) continue;
    const below = at(x0, y + 2), above = at(x0, y - 2);
    const len = signedRun(g, below, above, 1, x1 - x0);
    if (y < fy0) top = Math.max(top, len);
    else bottom = Math.max(bottom, len);
  }
  for (let x = x0; x < x1; x++) {
    if (x >= fx0 - 2 && x <= fx1 + 2) continue;
    const right2 = at(x + 2, y0), left2 = at(x - 2, y0);
    const len = signedRun(g, right2, left2, stride, y1 - y0);
    if (x < fx0) left = Math.max(left, len);
    else right = Math.max(right, len);
  }
  const lengths = [top / face.width, bottom / face.width, left / face.height, right / face.height] as [number, number, number, number];
  return { sides: lengths.filter((l) => l >= minLength).length, lengths };
}

/**
 * Moiré and refresh aliasing: a screen photographed by a camera folds its pixel grid and its
 * refresh into periodic patterns, narrow peaks in the spatial spectrum of the face; skin has a
 * smooth falling spectrum. 64 × 64 luma of the inner face (Hann window), power at spatial
 * frequencies 10–31 cycles per crop; returns the strongest peak over the band's median.
 */
export function moirePeakRatio(img: RgbImage, face: Box): number {
  const N = 64;
  const inner = scaleBox(face, 0.6);
  const px = new Float64Array(N * N);
  // A column's x and Hann factor depend on u only, a row's on v only: computed once each (the
  // same expressions, so the same values; same-outputs.test.ts keeps the per-pixel form).
  const colX = new Int32Array(N), colW = new Float64Array(N);
  for (let u = 0; u < N; u++) {
    colX[u] = Math.min(img.width - 1, Math.max(0, Math.round(inner.x + ((u + 0.5) * inner.width) / N)));
    colW[u] = 0.5 - 0.5 * Math.cos((2 * Math.PI * (u + 0.5)) / N);
  }
  for (let v = 0; v < N; v++) {
    const y = Math.min(img.height - 1, Math.max(0, Math.round(inner.y + ((v + 0.5) * inner.height) / N)));
    const wv = 0.5 - 0.5 * Math.cos((2 * Math.PI * (v + 0.5)) / N);
    for (let u = 0; u < N; u++) px[v * N + u] = gray(img, colX[u]!, y) * (colW[u]! * wv);
  }
  let mean = 0;
  for (const p of px) mean += p;
  mean /= N * N;
  for (let i = 0; i < px.length; i++) px[i]! -= mean;
  // Separable DFT: rows, then columns (64 × 64 × 64 × 2 multiply-adds; no FFT needed at this size).
  const cos = Float64Array.from({ length: N }, (_, k) => Math.cos((2 * Math.PI * k) / N));
  const sin = Float64Array.from({ length: N }, (_, k) => Math.sin((2 * Math.PI * k) / N));
  const re = new Float64Array(N * N), im = new Float64Array(N * N);
  // Twiddle indices (k·u mod N) advanced by k per step instead of a multiply and a modulo: the same
  // index, so the same terms in the same order.
  for (let v = 0; v < N; v++) {
    const row = v * N;
    for (let k = 0; k < N; k++) {
      let a = 0, b = 0;
      for (let u = 0, idx = 0; u < N; u++) {
        const p = px[row + u]!;
        a += p * cos[idx]!;
        b -= p * sin[idx]!;
        idx += k;
        if (idx >= N) idx -= N;
      }
      re[v * N + k] = a;
      im[v * N + k] = b;
    }
  }
  const power: number[] = [];
  for (let k = 0; k < N; k++) {
    for (let l = 0; l < N; l++) {
      let a = 0, b = 0;
      for (let v = 0, idx = 0, at = k; v < N; v++, at += N) {
        const r0 = re[at]!, i0 = im[at]!;
        a += r0 * cos[idx]! + i0 * sin[idx]!;
        b += i0 * cos[idx]! - r0 * sin[idx]!;
        idx += l;
        if (idx >= N) idx -= N;
      }
      const fk = k > N / 2 ? k - N : k, fl = l > N / 2 ? l - N : l;
      const rad = Math.hypot(fk, fl);
      // Skip the axes: a straight edge or a JPEG block boundary puts energy there, not moiré.
      if (rad >= 10 && rad <= 31 && fk !== 0 && fl !== 0) power.push(a * a + b * b);
    }
  }
  power.sort((p, q) => p - q);
  const med = power[Math.floor(power.length / 2)]!;
  return med > 0 ? power[power.length - 1]! / med : 0;
}

/** Fraction of saturated (all channels ≥ 250) pixels on the inner face: screen glare, not skin sheen. */
export function glareFraction(img: RgbImage, face: Box): number {
  const inner = scaleBox(face, 0.7);
  const x0 = Math.max(0, Math.floor(inner.x)), x1 = Math.min(img.width, Math.ceil(inner.x + inner.width));
  const y0 = Math.max(0, Math.floor(inner.y)), y1 = Math.min(img.height, Math.ceil(inner.y + inner.height));
  let n = 0, hot = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * img.width + x) * 3;
      n++;
      if (img.data[i]! >= 250 && img.data[i + 1]! >= 250 && img.data[i + 2]! >= 250) hot++;
    }
  }
  return n ? hot / n : 0;
}

/**
 * Face-swap blending: a swapped face is rendered at the generator's resolution and blended in, so
 * its inner texture is smoother than the real skin, hair and jaw just around it. Ratio of the
 * mean absolute Laplacian inside the landmark hull's central part (cheeks, nose, eyes) to a ring
 * from the jaw line outwards (1.0–1.25 × the face box, below the eyes).
 */
export function blendTextureRatio(img: RgbImage, face: Box, landmarks: Point[]): number {
  const lap = (x: number, y: number) => Math.abs(4 * gray(img, x, y) - gray(img, x - 1, y) - gray(img, x + 1, y) - gray(img, x, y - 1) - gray(img, x, y + 1));
  const inner = scaleBox(face, 0.55);
  const outer = scaleBox(face, 1.25);
  const eyeY = (landmarks[36]![1] + landmarks[45]![1]) / 2;
  let si = 0, ni = 0, so = 0, no = 0;
  const step = Math.max(1, Math.floor(face.width / 80));
  for (let y = Math.max(1, Math.floor(outer.y)); y < Math.min(img.height - 1, outer.y + outer.height); y += step) {
    for (let x = Math.max(1, Math.floor(outer.x)); x < Math.min(img.width - 1, outer.x + outer.width); x += step) {
      const inInner = x >= inner.x && x < inner.x + inner.width && y >= inner.y && y < inner.y + inner.height;
      const inFace = x >= face.x && x < face.x + face.width && y >= face.y && y < face.y + face.height;
      if (inInner) {
        si += lap(x, y);
        ni++;
      } else if (!inFace && y > eyeY) {
        so += lap(x, y);
        no++;
      }
    }
  }
  return ni && no && so > 0 ? si / ni / (so / no) : Number.NaN;
}

export interface ScreenFrame {
  /** Shorter of the left and right edges that enclose the face as a bright panel's sides, in face heights. */
  sides: number;
  /** Shorter of the top and bottom edges of such a panel, in face widths. */
  ends: number;
  /** max(sides, ends): a panel seen on two opposite sides. */
  enclosure: number;
}

/**
 * A lit screen around the face (v3). Real replays show the phone or monitor on two opposite sides
 * at most (the rest is cut by the frame or covered by a hand), so `screenBorders`' three sides
 * never fired on them; what they do show is an emissive panel: the image is brighter inside the
 * edges than outside, on both sides. Within 4 × the face box (a face replayed as a selfie video
 * fills a third to a half of the screen's width), each column left of the face is scanned for the
 * longest run of dark→bright steps (gradient ≥ 24 grey levels across 4 px, gaps of 2 px allowed),
 * each column right of it for bright→dark, and likewise rows above and below; the shorter of each
 * opposite pair counts. A door frame or a shelf seldom pairs up with the right polarity on both
 * sides at once.
 */
export function screenFrame(img: RgbImage, face: Box): ScreenFrame {
  const r = scaleBox(face, 4);
  const x0 = Math.max(2, Math.floor(r.x)), x1 = Math.min(img.width - 3, Math.ceil(r.x + r.width));
  const y0 = Math.max(2, Math.floor(r.y)), y1 = Math.min(img.height - 3, Math.ceil(r.y + r.height));
  const fx0 = Math.floor(face.x), fx1 = Math.ceil(face.x + face.width), fy0 = Math.floor(face.y), fy1 = Math.ceil(face.y + face.height);
  let top = 0, bottom = 0, left = 0, right = 0;
  // Luma read from a plane computed once (the same values `gray` gives: same-outputs.test.ts).
  const { g, at, stride } = grayPlane(img, x0, y0, x1, y1);
  for (let y = y0; y < y1; y++) {
    if (y >= fy0 - 2 && y <= fy1 + 2) continue;
    const below = at(x0, y + 2), above = at(x0, y - 2);
    if (y < fy0) top = Math.max(top, polarRun(g, below, above, 1, x1 - x0, 1));
    else bottom = Math.max(bottom, polarRun(g, below, above, 1, x1 - x0, -1));
  }
  for (let x = x0; x < x1; x++) {
    if (x >= fx0 - 2 && x <= fx1 + 2) continue;
    const right2 = at(x + 2, y0), left2 = at(x - 2, y0);
    if (x < fx0) left = Math.max(left, polarRun(g, right2, left2, stride, y1 - y0, 1));
    else right = Math.max(right, polarRun(g, right2, left2, stride, y1 - y0, -1));
  }
  const sides = Math.min(left, right) / face.height;
  const ends = Math.min(top, bottom) / face.width;
  return { sides, ends, enclosure: Math.max(sides, ends) };
}

/**
 * Skin-tone gamut (v3): fraction of the inner face (0.7 × box) whose colour lies in the YCbCr skin
 * box of Chai & Ngan (Cb 77–127, Cr 133–173). Skin of any tone photographed in ordinary light falls
 * there; a face re-emitted by a screen and filmed again takes the panel's white point and gamut
 * (blue or cyan casts, clipped reds) and leaves it. An achromatic face (a grayscale or infrared
 * camera: mean |Cb − 128| + |Cr − 128| under 2) reads NaN, not measurable.
 */
export function skinToneFraction(img: RgbImage, face: Box): number {
  return skinShare(img, face, null);
}

/** The skin share of the face's central box, each channel read through `lut` when given (white balance). */
function skinShare(img: RgbImage, face: Box, lut: Float64Array[] | null): number {
  const b = scaleBox(face, 0.7);
  const x0 = Math.max(0, Math.floor(b.x)), x1 = Math.min(img.width, Math.ceil(b.x + b.width));
  const y0 = Math.max(0, Math.floor(b.y)), y1 = Math.min(img.height, Math.ceil(b.y + b.height));
  let skin = 0, n = 0, chroma = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * img.width + x) * 3;
      const r = lut ? lut[0]![img.data[i]!]! : img.data[i]!;
      const g = lut ? lut[1]![img.data[i + 1]!]! : img.data[i + 1]!;
      const bl = lut ? lut[2]![img.data[i + 2]!]! : img.data[i + 2]!;
      const cb = 128 - 0.168736 * r - 0.331264 * g + 0.5 * bl;
      const cr = 128 + 0.5 * r - 0.418688 * g - 0.081312 * bl;
      if (cb >= 77 && cb <= 127 && cr >= 133 && cr <= 173) skin++;
      chroma += Math.abs(cb - 128) + Math.abs(cr - 128);
      n++;
    }
  }
  return n && chroma / n >= 2 ? skin / n : Number.NaN;
}

// sRGB ↔ linear light, for the white balance below (light scales in linear space).
const LINEAR = Float64Array.from({ length: 256 }, (_, v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});
const toSrgb = (l: number) => {
  const c = Math.min(1, Math.max(0, l));
  return 255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);
};

/**
 * The scene's white (v7): per channel, the `percentile` of the background — every other pixel of the
 * frame outside 1.4 × the face box (hair and neck excluded), in linear light. White-patch rather than
 * grey-world: a room whose walls are all one colour (the orange Replay-Attack scenes) would be
 * "corrected" by grey-world into grey walls and an off-colour face, and a print in daylight would be
 * corrected out of its own cast; the brightest surfaces (a white shirt, a lamp-lit wall, a window)
 * carry the light itself. `null` when the background is under 5 % of the frame (a face filling the
 * picture: no scene to read the light from).
 */
export function sceneWhite(img: RgbImage, face: Box, percentile: number): [number, number, number] | null {
  const ex = scaleBox(face, 1.4);
  const hist = [new Uint32Array(256), new Uint32Array(256), new Uint32Array(256)];
  let n = 0;
  for (let y = 0; y < img.height; y += 2) {
    const inRows = y >= ex.y && y < ex.y + ex.height;
    for (let x = 0; x < img.width; x += 2) {
      if (inRows && x >= ex.x && x < ex.x + ex.width) continue;
      const i = (y * img.width + x) * 3;
      hist[0]![img.data[i]!]!++;
      hist[1]![img.data[i + 1]!]!++;
      hist[2]![img.data[i + 2]!]!++;
      n++;
    }
  }
  if (n < 0.05 * Math.ceil(img.width / 2) * Math.ceil(img.height / 2)) return null;
  const at = (h: Uint32Array) => {
    const k = Math.floor(percentile * (n - 1));
    let c = 0;
    for (let v = 0; v < 256; v++) if ((c += h[v]!) > k) return LINEAR[v]!;
    return 1;
  };
  return [at(hist[0]!), at(hist[1]!), at(hist[2]!)];
}

/**
 * Skin-tone gamut judged on the face white-balanced to the scene's light (v7): the face's pixels
 * are scaled per channel (von Kries, linear light) so the scene's white (`sceneWhite`) becomes grey,
 * each gain within [1/`maxGain`, `maxGain`] of the three's mean, then counted in the same YCbCr skin
 * box as `skinToneFraction`. A person lit orange, green or blue by the room is skin again; a face
 * re-emitted by a screen keeps the screen's white point against the room's. No scene white (face
 * fills the frame): the face as captured. NaN for an achromatic face, as there.
 */
export function whiteBalancedSkinTone(img: RgbImage, face: Box, wb: { percentile: number; maxGain: number }): { fraction: number; gains: [number, number, number] } {
  const white = sceneWhite(img, face, wb.percentile);
  const mean = white ? (white[0] + white[1] + white[2]) / 3 : 0;
  const gains = (white ? white.map((w) => (w > 0 ? Math.min(wb.maxGain, Math.max(1 / wb.maxGain, mean / w)) : wb.maxGain)) : [1, 1, 1]) as [number, number, number];
  // (A gain of exactly 1 maps each level to itself, so no scene white gives skinToneFraction's count.)
  const lut = gains.map((g) => Float64Array.from({ length: 256 }, (_, v) => (g === 1 ? v : toSrgb(LINEAR[v]! * g))));
  return { fraction: skinShare(img, face, lut), gains };
}

/**
 * v7's per-frame skin share: the larger of the share as captured and white-balanced. The balance
 * explains a tint by the scene's light; it never makes a frame worse than as captured (a face in
 * front of a coloured backdrop brighter than any white surface would be "corrected" off the gamut).
 * NaN (achromatic) only when both are.
 */
export function explainedSkinTone(asCaptured: number, balanced: number): number {
  if (!Number.isFinite(asCaptured)) return balanced;
  if (!Number.isFinite(balanced)) return asCaptured;
  return Math.max(asCaptured, balanced);
}
