import sharp from 'sharp';

/**
 * sharp's `normalise()` (lower 1, upper 99) of a one-channel 8-bit image, pixel for pixel, without
 * running it on the image.
 *
 * Why: cutting band crops was a fifth of a scan's time, and most of a crop's cost was `normalise()`:
 * libvips converts the whole crop to CIELAB and back and walks it once more for the luminance
 * histogram (a 380 × 75 crop: 20 ms with it, 7 ms without). The stretch is a function of each
 * pixel's grey value and two integers sharp derives from the histogram, so it is a 256-entry table.
 *
 * The two integers, as libvips 8.17 computes them (`percent.c`, `hist_norm.c`, `linear.c`):
 * luminance L* is cut to whole numbers (a ushort cast, so truncation) and histogrammed with
 * X = largest bin + 1 bins; the cumulative histogram is scaled in float32 so its last bin is X − 1
 * and cast back (truncation); a percentile is the first bin whose scaled count exceeds
 * percent / 100 × X, or X when none does. With X ≤ 101 the upper (99 %) one is in effect the
 * largest bin (+ 1 below 100): sharp stretches to the crop's brightest pixel, not its 99th percentile.
 *
 * The table itself comes from sharp, not from a re-derivation of the colour maths: a probe image of
 * a few hundred pixels, holding every grey level from the crop's lower bin to its largest plus a mass
 * in the lower bin, gives the same two integers (checked with the same model before use), so sharp's
 * `normalise()` of it maps each grey level exactly as it maps the crop's. Tables are kept per (lower,
 * upper, largest bin): about ten thousand at most (256 bytes each), a few tens in a scan. Where no
 * such probe can be built the crop goes through sharp's `normalise()` itself. `stretch.test.ts` holds the result to sharp's,
 * byte for byte, on real crops.
 */

/** L* of each grey level as libvips computes it (float32), for the histogram bins. */
let lightness: Promise<Float32Array> | null = null;
const lightnessTable = () => (lightness ??= (async () => {
  const ramp = Buffer.alloc(256);
  for (let v = 0; v < 256; v++) ramp[v] = v;
  const { data } = await sharp(ramp, { raw: { width: 256, height: 1, channels: 1 } }).toColourspace('lab').raw({ depth: 'float' }).toBuffer({ resolveWithObject: true });
  // A copy, so the floats are aligned whatever offset the output buffer has.
  const lab = new Float32Array(Uint8Array.from(data).buffer);
  const out = new Float32Array(256);
  for (let v = 0; v < 256; v++) out[v] = lab[v * 3]!;
  return out;
})());

/** libvips's two percentile bins (sharp's `min` and `max`) for a histogram of grey levels. */
export function stretchBounds(hist: ArrayLike<number>, L: Float32Array): { lower: number; upper: number; top: number } {
  const bins = new Float64Array(102);
  let top = 0, total = 0;
  for (let v = 0; v < 256; v++) {
    const n = hist[v]!;
    if (!n) continue;
    const b = Math.trunc(L[v]!);
    bins[b]! += n;
    total += n;
    if (b > top) top = b;
  }
  const X = top + 1;
  const scale = Math.fround((X - 1) / total);
  const at = (p: number) => {
    const threshold = (p / 100) * X;
    let cum = 0;
    for (let b = 0; b < X; b++) {
      cum += bins[b]!;
      if (Math.trunc(Math.fround(scale * Math.fround(cum))) > threshold) return b;
    }
    return X;
  };
  return { lower: at(1), upper: at(99), top };
}

const tables = new Map<string, Promise<Uint8Array | null>>();

/** The grey-level table sharp's normalise() applies for these bounds, or null where no probe image reproduces them. */
function tableFor(lower: number, upper: number, top: number, L: Float32Array): Promise<Uint8Array | null> {
  const key = `${lower}:${upper}:${top}`;
  let t = tables.get(key);
  if (!t) {
    t = (async () => {
      // sharp leaves the image alone when its bounds are a bin or less apart.
      if (Math.abs(upper - lower) <= 1) return Uint8Array.from({ length: 256 }, (_, v) => v);
      // The probe: every grey level in the bins lower..top (so it has the crop's largest bin) and a
      // mass in the lower bin that makes it the crossing. Levels below the lower bin stretch below
      // L* 0, which sharp clips to black: they are not in the probe (which keeps it a few hundred
      // pixels) and are 0 in the table.
      let first = -1, last = -1;
      for (let v = 0; v < 256; v++) {
        const b = Math.trunc(L[v]!);
        if (b >= lower && b <= top) { if (first < 0) first = v; last = v; }
      }
      if (first < 0) return null;
      for (const mass of [256, 300, 411, 517]) {
        const hist = new Float64Array(256);
        for (let v = first; v <= last; v++) hist[v] = 1;
        hist[first]! += mass;
        const b = stretchBounds(hist, L);
        if (b.lower !== lower || b.upper !== upper || b.top !== top) continue;
        const levels = last - first + 1;
        const probe = Buffer.alloc(levels + mass, first);
        for (let v = first; v <= last; v++) probe[v - first] = v;
        const { data, info } = await sharp(probe, { raw: { width: probe.length, height: 1, channels: 1 } }).normalise().raw().toBuffer({ resolveWithObject: true });
        const table = new Uint8Array(256);
        for (let v = first; v <= last; v++) table[v] = data[(v - first) * info.channels]!;
        return table;
      }
      return null;
    })();
    tables.set(key, t);
  }
  return t;
}

/**
 * `sharp(grey, raw one channel).normalise()`'s pixels (one channel) for a one-channel 8-bit image:
 * the same bytes, at a fraction of the cost.
 */
export async function normaliseGrey(grey: Uint8Array, width: number, height: number): Promise<Buffer> {
  const L = await lightnessTable();
  const hist = new Uint32Array(256);
  for (let i = 0; i < grey.length; i++) hist[grey[i]!]!++;
  const { lower, upper, top } = stretchBounds(hist, L);
  const table = await tableFor(lower, upper, top, L);
  if (!table) {
    const { data, info } = await sharp(grey, { raw: { width, height, channels: 1 } }).normalise().raw().toBuffer({ resolveWithObject: true });
    if (info.channels === 1) return data;
    const one = Buffer.allocUnsafe(width * height);
    for (let i = 0; i < one.length; i++) one[i] = data[i * info.channels]!;
    return one;
  }
  const out = Buffer.allocUnsafe(grey.length);
  for (let i = 0; i < grey.length; i++) out[i] = table[grey[i]!]!;
  return out;
}
