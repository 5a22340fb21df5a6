import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Public face photos for calibrating the face-match threshold (issue 14): manifest types,
 * locations and the held-out rule. The photos are never committed: `sources.json` pins source
 * repository, commit, path, sha256 and the licence as stated; `fetch.ts` rebuilds the files
 * under .data/faces-public from a snapshot of each repository.
 */
export const PUBLIC_FACES_DIR = path.dirname(fileURLToPath(import.meta.url));
export const PUBLIC_FACES_DATA_DIR = path.resolve(PUBLIC_FACES_DIR, '../../../.data/faces-public');

export type PublicFaceSet = 'lfw' | 'azure-face';

/** One snapshot of one repository, and the licence it states for the photos. */
export interface PublicFaceRepo {
  set: PublicFaceSet;
  repo: string;
  commit: string;
  licence: string;
}

export interface PublicFace {
  /** `<set>-<first 12 hex of sha256>` */
  id: string;
  /** Pairs are only formed inside one set: the same person may appear under two names in two sets. */
  set: PublicFaceSet;
  identity: string;
  path: string;
  sha256: string;
  bytes: number;
}

export interface PublicFaceManifest {
  repos: PublicFaceRepo[];
  photos: PublicFace[];
}

export function loadPublicFaces(): PublicFaceManifest {
  return JSON.parse(readFileSync(path.join(PUBLIC_FACES_DIR, 'sources.json'), 'utf8')) as PublicFaceManifest;
}

/**
 * Held-out rule, fixed before any threshold was looked at: an identity (never a photo: the same
 * person must not sit on both sides) is held out when the first byte of
 * sha256("faces-heldout:" + set + "/" + identity) is below 77 (≈ 30 %).
 */
export function isHeldOutIdentity(set: string, identity: string): boolean {
  return createHash('sha256').update(`faces-heldout:${set}/${identity}`).digest()[0]! < 77;
}
