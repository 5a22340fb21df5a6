import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The real-image corpus: manifest types, locations and the held-out rule. */
export const REAL_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REAL_DATA_DIR = path.resolve(REAL_DIR, '../../../.data/authenticity/real');

export type RealKind = 'camera' | 'scanner' | 'document' | 'browser';

export interface RealSource {
  /** `<kind>-<first 12 hex of sha256>` */
  id: string;
  repo: string;
  /** Git commit of the snapshot ('' for ../shared files, which are referenced in place). */
  commit: string;
  path: string;
  sha256: string;
  bytes: number;
  licence: string;
  kind: RealKind;
  /** EXIF Make + Model (camera/scanner), for per-device figures. */
  device: string;
}

export function loadSources(): RealSource[] {
  return JSON.parse(readFileSync(path.join(REAL_DIR, 'sources.json'), 'utf8')) as RealSource[];
}

/**
 * Held-out rule, fixed before any tuning: a source image is held out when the first byte of
 * sha256("heldout:" + its sha256) is below 77 (≈ 30 %). Everything made from it (browser
 * re-encodes, attacks, splice donors) goes with it, so no held-out pixel ever reaches training.
 */
export function isHeldOut(sha256: string): boolean {
  return createHash('sha256').update(`heldout:${sha256}`).digest()[0]! < 77;
}
