import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AuthenticityError } from '../errors.js';
import { ANNEX_K_LUMA, exactIjgQuality } from './quantization.js';

/**
 * Does the file's quantisation table agree with the camera its EXIF names? (feature set v7,
 * settings v8; issue 13.)
 *
 * A camera writes a small set of tables (one per quality setting, or a vendor's adaptive family
 * within a narrow range of coarseness). An editor that keeps the camera's EXIF writes its own
 * table: usually Annex K at the editor's quality, often coarser than anything that camera writes.
 * This is the "camera signature" test of Kee, Johnson and Farid (IEEE TIFS 6(3), 2011) on the
 * luminance table, keyed by EXIF Make (and Model where the catalogue has it).
 *
 * The catalogue (`model/camera-headers-v1.json`, built by tools/authenticity/real/build-camera-headers.ts)
 * holds the luminance tables of the real genuine camera and scanner files of the TUNING split,
 * with provenance (source ids). Training rows are computed with their own source left out
 * (`excludeSources`), so a tuning image never finds its own table and the model sees "unknown
 * make" and "known make, unseen table" as often as a new upload would.
 *
 * Without a Make, or with a Make the catalogue does not hold, every value is neutral (-1 / 0):
 * in-page captures and stripped files carry no claim to check, and the model never reads EXIF
 * presence or the maker's name alone (decision in docs/decisions.md). `hdr_make_state` is 1 when
 * the claim can be checked.
 */
export interface CameraHeaderEntry {
  /** Normalised EXIF Make / Model (lower case, single spaces). */
  make: string;
  model: string;
  /** sha256 of the 64 luma values joined by commas (natural order), first 16 hex. */
  luma: string;
  /** Mean luma step (coarseness) of that table. */
  lumaMean: number;
  /** 'annex_k' (libjpeg's table at some quality) or 'other'. */
  family: 'annex_k' | 'other';
  sources: string[];
}

export interface CameraHeaderCatalogue {
  note: string;
  entries: CameraHeaderEntry[];
}

export const HEADER_FEATURE_NAMES = [
  'hdr_make_state',
  'hdr_model_known',
  'hdr_table_seen_make',
  'hdr_table_seen_model',
  'hdr_family_seen_make',
  'hdr_coarser_than_make',
  'hdr_finer_than_make',
] as const;

export const CAMERA_HEADERS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../model');

const cache = new Map<string, CameraHeaderCatalogue>();

/** Loads and sha256-checks a catalogue (pinned in the settings like the model). */
export function loadCameraHeaders(file: string, sha256: string, dir = CAMERA_HEADERS_DIR): CameraHeaderCatalogue {
  const key = `${dir}/${file}:${sha256}`;
  const hit = cache.get(key);
  if (hit) return hit;
  let bytes: Buffer;
  try {
    bytes = readFileSync(path.join(dir, file));
  } catch {
    throw new AuthenticityError('model_unavailable', `camera header catalogue ${file} not found`);
  }
  const digest = createHash('sha256').update(bytes).digest('hex');
  if (digest !== sha256) throw new AuthenticityError('model_integrity_failed', `camera header catalogue ${file} sha256 ${digest} does not match the pinned ${sha256}`);
  const cat = JSON.parse(bytes.toString('utf8')) as CameraHeaderCatalogue;
  cache.set(key, cat);
  return cat;
}

export function normaliseDevice(v: unknown): string {
  return typeof v === 'string' ? v.replace(/\0/g, '').trim().replace(/\s+/g, ' ').toLowerCase() : '';
}

export function lumaKey(values: ArrayLike<number>): string {
  return createHash('sha256').update(Array.prototype.join.call(values, ',')).digest('hex').slice(0, 16);
}

export function lumaMeanOf(values: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i]!;
  return s / Math.max(1, values.length);
}

export function lumaFamily(values: ArrayLike<number>): 'annex_k' | 'other' {
  return exactIjgQuality(values, ANNEX_K_LUMA) !== null ? 'annex_k' : 'other';
}

/**
 * The 7 values of HEADER_FEATURE_NAMES. `excludeSources`: catalogue entries contributed only by
 * these sources are ignored (training rows of the tuning split: leave their own source out).
 */
export function headerFeatures(
  catalogue: CameraHeaderCatalogue,
  claimed: { make: string; model: string } | null,
  luma: ArrayLike<number> | null,
  excludeSources: readonly string[] = [],
): number[] {
  const make = normaliseDevice(claimed?.make);
  if (!make || !luma || luma.length !== 64) return [-1, 0, -1, -1, -1, 0, 0];
  const model = normaliseDevice(claimed?.model);
  const skip = new Set(excludeSources);
  const ofMake = catalogue.entries.filter((e) => e.make === make && e.sources.some((s) => !skip.has(s)));
  // A make the catalogue never saw is no claim at all, not a mismatch: the catalogue lacks common
  // phone makes (no Xiaomi or Huawei file in the tuning split) and the attacks' EXIF is drawn from a
  // short list of phones, so "unknown make" would teach the model who the generator's phones are.
  if (!ofMake.length) return [-1, 0, -1, -1, -1, 0, 0];
  const ofModel = ofMake.filter((e) => e.model === model);
  const key = lumaKey(luma);
  const mean = lumaMeanOf(luma);
  const family = lumaFamily(luma);
  let lo = Infinity;
  let hi = 0;
  for (const e of ofMake) {
    lo = Math.min(lo, e.lumaMean);
    hi = Math.max(hi, e.lumaMean);
  }
  return [
    1,
    ofModel.length ? 1 : 0,
    ofMake.some((e) => e.luma === key) ? 1 : 0,
    ofModel.length ? (ofModel.some((e) => e.luma === key) ? 1 : 0) : -1,
    ofMake.some((e) => e.family === family) ? 1 : 0,
    // log2 of how much coarser (finer) the file's table is than the coarsest (finest) table this make writes.
    Math.max(0, Math.log2(mean / hi)),
    Math.max(0, Math.log2(lo / mean)),
  ];
}
