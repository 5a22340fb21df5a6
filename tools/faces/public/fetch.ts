import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadPublicFaces, PUBLIC_FACES_DATA_DIR, PUBLIC_FACES_DIR, type PublicFace } from './sources.js';

/**
 * Materialises the photos of `sources.json` under .data/faces-public from snapshots of the named
 * repositories: the `fetch` tool's /work/.mirror/<owner>+<name>/repo, or any clone at the pinned
 * commit (set FACES_MIRROR_DIR=<dir holding owner+name/repo>, e.g. after
 * `git clone --bare https://github.com/<repo> <dir>/<owner>+<name>/repo`). Every file is checked
 * against its pinned sha256; a file that differs is missing, never used.
 */
export const MIRROR_DIR = process.env.FACES_MIRROR_DIR ?? '/work/.mirror';

export function publicFacePath(f: PublicFace): string {
  return path.join(PUBLIC_FACES_DATA_DIR, `${f.id}.jpg`);
}

export function fetchPublicFaces(): { ready: number; missing: string[] } {
  mkdirSync(PUBLIC_FACES_DATA_DIR, { recursive: true });
  const missing: string[] = [];
  let ready = 0;
  const manifest = loadPublicFaces();
  const repoOf = new Map(manifest.repos.map((r) => [r.set, r]));
  for (const f of manifest.photos) {
    const repo = repoOf.get(f.set)!;
    const target = publicFacePath(f);
    let bytes: Buffer | null = existsSync(target) ? readFileSync(target) : null;
    if (!bytes) {
      try {
        const gitDir = path.join(MIRROR_DIR, repo.repo.replace('/', '+'), 'repo');
        bytes = execFileSync('git', ['--git-dir', gitDir, 'show', `${repo.commit}:${f.path}`], { maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'ignore'] });
      } catch {
        bytes = null;
      }
    }
    if (!bytes || createHash('sha256').update(bytes).digest('hex') !== f.sha256) {
      missing.push(f.id);
      continue;
    }
    if (!existsSync(target)) writeFileSync(target, bytes);
    ready++;
  }
  return { ready, missing };
}

/** Public clips for the liveness bench (`videos.json`), beside ../shared/videos; same rules as the photos. */
export interface PublicVideo {
  name: string;
  repo: string;
  commit: string;
  path: string;
  sha256: string;
  bytes: number;
  licence: string;
  content: string;
}

export const PUBLIC_VIDEOS_DATA_DIR = path.resolve(PUBLIC_FACES_DATA_DIR, '..', 'videos-public');

/**
 * `videos.json` (clips of the labelled liveness cases), `attack-videos.json` (the held-out
 * attack set of bench/liveness-attacks.json: real-time face-swap demos) and `unseen-videos.json`
 * (the public unseen set of bench/liveness-unseen.json), one manifest each.
 */
export const PUBLIC_VIDEO_MANIFESTS = ['videos.json', 'attack-videos.json', 'unseen-videos.json'] as const;

export function loadPublicVideos(manifests: readonly string[] = PUBLIC_VIDEO_MANIFESTS): PublicVideo[] {
  return manifests.flatMap((f) => JSON.parse(readFileSync(path.join(PUBLIC_FACES_DIR, f), 'utf8')) as PublicVideo[]);
}

/** Materialises the clips of `videos.json` under .data/videos-public (sha256-checked); returns the names missing. */
export function fetchPublicVideos(): string[] {
  mkdirSync(PUBLIC_VIDEOS_DATA_DIR, { recursive: true });
  const missing: string[] = [];
  for (const v of loadPublicVideos()) {
    const target = path.join(PUBLIC_VIDEOS_DATA_DIR, v.name);
    let bytes: Buffer | null = existsSync(target) ? readFileSync(target) : null;
    if (!bytes) {
      try {
        bytes = execFileSync('git', ['--git-dir', path.join(MIRROR_DIR, v.repo.replace('/', '+'), 'repo'), 'show', `${v.commit}:${v.path}`], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
      } catch {
        bytes = null;
      }
    }
    if (!bytes || createHash('sha256').update(bytes).digest('hex') !== v.sha256) {
      missing.push(v.name);
      continue;
    }
    if (!existsSync(target)) writeFileSync(target, bytes);
  }
  return missing;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = fetchPublicFaces();
  const videosMissing = fetchPublicVideos();
  console.log(JSON.stringify({ ready: r.ready, missing: r.missing.length, videos_missing: videosMissing }));
  if (r.missing.length) console.log(`missing (fetch the repositories first): ${r.missing.slice(0, 10).join(', ')}`);
}
