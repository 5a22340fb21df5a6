import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ANNEX_K_LUMA, ijgTable } from '../../../engine/authenticity/metadata/quantization.js';
import type { CameraTableEntry } from '../real/build-camera-tables.js';
import { encodeJpegWithTables, exifSegment } from './jpeg-encode.js';
import type { Rng } from '../training/rng.js';
import type { Zone } from '../../../engine/authenticity/zones.js';
import { clamp255, rawInput, toRaw } from './raw.js';

const CAMERA_TABLES_PATH = path.join(path.dirname(fileURLToPath(import.meta.url)), 'camera-tables.json');

/**
 * Simulated phone capture of a flat object: the object lands on a textured surface with a small
 * rotation and scale, under uneven light, through a slightly soft lens with sensor noise, and is
 * saved as a camera-like JPEG (high quality, varied quantisation tables, camera EXIF or, like an
 * in-browser capture, none). Used for the clean class and as the last hop of recaptures, so that
 * metadata and JPEG settings alone never separate the classes.
 */
export interface CaptureOptions {
  /** Object width as a share of the frame width. */
  fill?: [number, number];
  maxAngleDeg?: number;
  /** Extra blur sigma range (optics + motion). */
  blur?: [number, number];
  noise?: [number, number];
  capturedAt: Date;
  /** Surface behind the object; recaptures pass a dark one (a screen's surroundings). */
  surface?: { r: number; g: number; b: number };
  /** Resampling of the object onto the sensor; recaptures use weak anti-aliasing (real optics alias fine grids). */
  kernel?: 'nearest' | 'linear' | 'cubic' | 'lanczos3';
}

export interface Captured {
  width: number;
  height: number;
  rgb: Uint8Array;
  zones: Zone[];
}

const CAMERAS = [
  { Make: 'samsung', Model: 'SM-A546B' },
  { Make: 'Apple', Model: 'iPhone 13' },
  { Make: 'Xiaomi', Model: 'Redmi Note 12' },
  { Make: 'motorola', Model: 'moto g54 5G' },
  { Make: 'Google', Model: 'Pixel 7a' },
  { Make: 'HUAWEI', Model: 'MAR-LX1A' },
];

function rotateBox(z: Zone, w: number, h: number, angleRad: number, outW: number, outH: number): Zone {
  const cx = w / 2;
  const cy = h / 2;
  const c = Math.cos(angleRad);
  const s = Math.sin(angleRad);
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [px, py] of [
    [z.x, z.y],
    [z.x + z.width, z.y],
    [z.x, z.y + z.height],
    [z.x + z.width, z.y + z.height],
  ] as const) {
    const dx = px - cx;
    const dy = py - cy;
    xs.push(dx * c - dy * s + outW / 2);
    ys.push(dx * s + dy * c + outH / 2);
  }
  const x0 = Math.min(...xs);
  const y0 = Math.min(...ys);
  return { name: z.name, x: x0, y: y0, width: Math.max(...xs) - x0, height: Math.max(...ys) - y0 };
}

/** Photographs `obj` (with zones in its frame): geometry, light, optics and sensor, no encoding. */
export async function photograph(
  obj: { width: number; height: number; rgb: Uint8Array; zones: Zone[] },
  rng: Rng,
  opts: CaptureOptions,
): Promise<Captured> {
  const frameW = rng.pick([1280, 1440, 1600]);
  const frameH = Math.round((frameW * 3) / 4);
  const [f0, f1] = opts.fill ?? [0.68, 0.9];
  let scale = (frameW * rng.range(f0, f1)) / obj.width;
  const angle = rng.range(-(opts.maxAngleDeg ?? 3), opts.maxAngleDeg ?? 3);
  // Tall layouts (passport pages) or large fills may not fit once rotated: shrink to fit.
  const cosA = Math.abs(Math.cos((angle * Math.PI) / 180));
  const sinA = Math.abs(Math.sin((angle * Math.PI) / 180));
  const boxW = obj.width * scale * cosA + obj.height * scale * sinA + 2;
  const boxH = obj.width * scale * sinA + obj.height * scale * cosA + 2;
  const fit = boxW <= frameW && boxH <= frameH ? 1 : 0.97 * Math.min(frameW / boxW, frameH / boxH);
  scale *= fit;
  const sw = Math.round(obj.width * scale);
  const sh = Math.round(obj.height * scale);
  const surface = opts.surface ?? { r: rng.int(60, 200), g: rng.int(50, 190), b: rng.int(40, 180) };
  const rotated = await toRaw(
    rawInput(obj)
      .resize(sw, sh, { kernel: opts.kernel ?? 'lanczos3' })
      .rotate(angle, { background: { ...surface, alpha: 1 } }),
  );
  const left = Math.round((frameW - rotated.width) / 2 + rng.range(-0.05, 0.05) * frameW);
  const top = Math.round((frameH - rotated.height) / 2 + rng.range(-0.05, 0.05) * frameH);
  const cl = Math.max(0, Math.min(frameW - rotated.width, left));
  const ct = Math.max(0, Math.min(frameH - rotated.height, top));
  const angleRad = (angle * Math.PI) / 180;
  const zones = obj.zones.map((z) => {
    const scaled = { name: z.name, x: z.x * scale, y: z.y * scale, width: z.width * scale, height: z.height * scale };
    const r = rotateBox(scaled, sw, sh, angleRad, rotated.width, rotated.height);
    return { name: r.name, x: Math.round(r.x + cl), y: Math.round(r.y + ct), width: Math.round(r.width), height: Math.round(r.height) };
  });
  // The surface: a flat colour with low-frequency texture.
  const bgSmall = new Uint8Array(16 * 12 * 3);
  for (let i = 0; i < bgSmall.length; i += 3) {
    const d = rng.range(-18, 18);
    bgSmall[i] = clamp255(surface.r + d);
    bgSmall[i + 1] = clamp255(surface.g + d);
    bgSmall[i + 2] = clamp255(surface.b + d);
  }
  const scene = await toRaw(
    rawInput({ width: 16, height: 12, rgb: bgSmall })
      .resize(frameW, frameH, { kernel: 'cubic' })
      .composite([{ input: Buffer.from(rotated.rgb), raw: { width: rotated.width, height: rotated.height, channels: 3 }, left: cl, top: ct }]),
  );
  const [b0, b1] = opts.blur ?? [0.3, 1.1];
  const blurred = await toRaw(rawInput(scene).blur(rng.range(b0, b1)));
  // Light falls off across the frame; the sensor adds noise that grows in the shadows.
  const gx = rng.range(-0.12, 0.12);
  const gy = rng.range(-0.12, 0.12);
  const gain = rng.range(0.9, 1.08);
  const [n0, n1] = opts.noise ?? [1.2, 3.5];
  const sigma = rng.range(n0, n1);
  // Gaussian samples come from a seeded table walked by a xorshift: ~10× faster than Box-Muller
  // per pixel and still deterministic for a given seed.
  const noiseRng = rng.fork('sensor');
  const table = new Float32Array(1 << 16);
  for (let i = 0; i < table.length; i++) table[i] = noiseRng.gauss();
  let state = (noiseRng.next() * 0xffffffff) | 1;
  const nextGauss = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return table[state & 0xffff]!;
  };
  const out = new Uint8Array(blurred.rgb.length);
  const w = blurred.width;
  const h = blurred.height;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const light = gain * (1 + gx * (x / w - 0.5) * 2 + gy * (y / h - 0.5) * 2);
      const j = (y * w + x) * 3;
      const shared = nextGauss() * sigma * 0.6;
      for (let c = 0; c < 3; c++) out[j + c] = clamp255(blurred.rgb[j + c]! * light + shared + nextGauss() * sigma * 0.8);
    }
  }
  return { width: w, height: h, rgb: out, zones };
}

/**
 * A flat, evenly lit capture: a scanner, a document camera or a phone held square over the page
 * with strong denoising. No rotation or background; mild optics blur and low sensor noise. The
 * second clean capture style of the training recipe, so that "clean" is not learned as "has the
 * camera simulation's noise and geometry".
 */
export async function flatCapture(obj: { width: number; height: number; rgb: Uint8Array; zones: Zone[] }, rng: Rng): Promise<Captured> {
  const width = rng.int(1100, 1600);
  const scale = width / obj.width;
  const height = Math.round(obj.height * scale);
  const blurred = await toRaw(rawInput(obj).resize(width, height, { kernel: 'lanczos3' }).blur(rng.range(0.4, 1.0)));
  const sigma = rng.range(0.8, 3.0);
  const gain = rng.range(0.95, 1.05);
  const noise = rng.fork('sensor');
  const out = new Uint8Array(blurred.rgb.length);
  for (let i = 0; i < out.length; i += 3) {
    const shared = noise.gauss() * sigma * 0.6;
    for (let c = 0; c < 3; c++) out[i + c] = clamp255(blurred.rgb[i + c]! * gain + shared + noise.gauss() * sigma * 0.8);
  }
  const zones = obj.zones.map((z) => ({ name: z.name, x: Math.round(z.x * scale), y: Math.round(z.y * scale), width: Math.round(z.width * scale), height: Math.round(z.height * scale) }));
  return { width, height, rgb: out, zones };
}

/** EXIF date-time (DateTime, DateTimeOriginal): 19 ASCII characters, UTC. */
export function exifDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}:${p(d.getUTCMonth() + 1)}:${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

export interface CameraExif {
  IFD0: Record<string, string>;
  IFD2: Record<string, string>;
  IFD3?: Record<string, string>;
}

export function cameraExif(rng: Rng, capturedAt: Date, withGps: boolean): CameraExif {
  const cam = rng.pick(CAMERAS);
  const date = exifDate(capturedAt);
  const exif: CameraExif = {
    IFD0: { Make: cam.Make, Model: cam.Model, DateTime: date },
    IFD2: {
      DateTimeOriginal: date,
      OffsetTimeOriginal: '+00:00',
      ExposureTime: `1/${rng.pick([30, 50, 60, 100, 120])}`,
      FNumber: `${rng.pick([16, 18, 22])}/10`,
      ISOSpeedRatings: String(rng.pick([50, 100, 200, 400, 800])),
      FocalLength: `${rng.int(40, 69)}/10`,
    },
  };
  if (withGps) {
    exif.IFD3 = {
      GPSLatitudeRef: rng.pick(['N', 'S']),
      GPSLatitude: `${rng.int(0, 60)}/1 ${rng.int(0, 59)}/1 ${rng.int(0, 5900)}/100`,
      GPSLongitudeRef: rng.pick(['E', 'W']),
      GPSLongitude: `${rng.int(0, 120)}/1 ${rng.int(0, 59)}/1 ${rng.int(0, 5900)}/100`,
    };
  }
  return exif;
}

/**
 * Which tables the simulated camera writes:
 * - `recipe`: the training recipe as released (mozjpeg presets 0/2/3/4/5; model v1–v4 corpora);
 * - `annex_k`: phone-like saves use Annex K tables too (same random stream as `recipe`);
 * - `real` (corpus recipe v3, issue 13): a header real cameras write, drawn from
 *   `camera-tables.json` (Annex K at the camera's quality or a vendor's own luma/chroma tables and
 *   chroma sampling, read from the real camera files of the tuning split), with that camera's
 *   EXIF Make/Model; in-browser captures (30 %) stay Annex K at 85–95 like Chromium's encoder.
 *   No clean capture carries mozjpeg's presets 2–5, which authenticity settings v6 read as software
 *   (engine/authenticity/README.md decision 14).
 */
export type CameraTables = 'recipe' | 'annex_k' | 'real';

/** Headers of real cameras fine enough for a document photo (luma at most 0.45 × Annex K at q50 on average, about q78). */
let realHeaders: CameraTableEntry[] | null = null;
export function realCameraHeaders(): CameraTableEntry[] {
  if (realHeaders) return realHeaders;
  const all = (JSON.parse(readFileSync(CAMERA_TABLES_PATH, 'utf8')) as { entries: CameraTableEntry[] }).entries;
  const annexMean = ANNEX_K_LUMA.reduce((a, b) => a + b, 0) / 64;
  realHeaders = all.filter((e) => e.luma.reduce((a, b) => a + b, 0) / 64 <= 0.45 * annexMean);
  return realHeaders;
}

/** The Annex K quality whose luma table is closest to `luma` (for the re-save bookkeeping). */
export function annexKEquivalentQuality(luma: readonly number[]): number {
  let best = 50;
  let bestErr = Infinity;
  for (let q = 1; q <= 100; q++) {
    const t = ijgTable(ANNEX_K_LUMA, q);
    let err = 0;
    for (let i = 0; i < 64; i++) err += Math.abs(Math.log(t[i]! / luma[i]!));
    if (err < bestErr) {
      bestErr = err;
      best = q;
    }
  }
  return best;
}

/** Encodes like a phone camera or an in-browser capture: high quality, one save, table family varies. */
export async function encodeCameraJpeg(
  img: { width: number; height: number; rgb: Uint8Array },
  rng: Rng,
  capturedAt: Date,
  onQuality?: (quality: number) => void,
  tables: CameraTables = 'recipe',
): Promise<Buffer> {
  if (tables === 'real') {
    if (rng.chance(0.3)) {
      const quality = rng.int(85, 95);
      onQuality?.(quality);
      return rawInput(img).jpeg({ quality, quantisationTable: 0, chromaSubsampling: '4:2:0' }).toBuffer();
    }
    const header = rng.pick(realCameraHeaders());
    onQuality?.(header.quality ?? annexKEquivalentQuality(header.luma));
    const exif = cameraExif(rng, capturedAt, rng.chance(0.3));
    exif.IFD0.Make = header.make;
    exif.IFD0.Model = header.model;
    return encodeJpegWithTables(img, header, await exifSegment(exif as unknown as Record<string, Record<string, string>>));
  }
  const browserLike = rng.chance(0.3);
  const quality = browserLike ? rng.int(85, 95) : rng.int(88, 97);
  onQuality?.(quality);
  const preset = browserLike ? 0 : rng.pick([0, 2, 3, 4, 5]);
  const pipeline = rawInput(img).jpeg({
    quality,
    quantisationTable: tables === 'annex_k' ? 0 : preset,
    chromaSubsampling: rng.chance(0.8) ? '4:2:0' : '4:4:4',
  });
  if (browserLike) return pipeline.toBuffer();
  return pipeline.withExif(cameraExif(rng, capturedAt, rng.chance(0.3)) as never).toBuffer();
}
