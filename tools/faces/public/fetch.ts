import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
 * attack set of bench/liveness-attacks.json: real-time face-swap demos), `unseen-videos.json`
 * (the public unseen set of bench/liveness-unseen.json) and `page-rate-videos.json` (the page-rate set of
 * bench/liveness-page-rate.json: footage at >= 10 fps), one manifest each.
 */
export const PUBLIC_VIDEO_MANIFESTS = ['videos.json', 'attack-videos.json', 'unseen-videos.json', 'page-rate-videos.json'] as const;

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

/**
 * A clip that a repository holds only as extracted frames (`unseen-frames.json`): the frame files of
 * one directory, pinned together by `sequenceDigest`, with the original video's frame rate so the
 * frame numbers in the names give each frame's time.
 */
export interface PublicFrameSequence {
  name: string;
  repo: string;
  commit: string;
  dir: string;
  /** File names inside `dir`, `frame_NNNNN.jpg` (NNNNN = frame number of the original video). */
  frames: string[];
  /** `sequenceDigest` of the frames. */
  sha256: string;
  source_fps: number;
  /** `unseen`: measured, never tuned on; `tuning`: the only part a new cue may be fitted on. */
  part: 'unseen' | 'tuning';
  kind: 'genuine' | 'print' | 'screen_replay' | 'deepfake';
  subject: string;
  licence: string;
  content: string;
}

/** One digest for a frame sequence: sha256 over "<file> <sha256 of its bytes>\n" lines in file order. */
export function sequenceDigest(frames: { file: string; bytes: Buffer }[]): string {
  const h = createHash('sha256');
  for (const f of frames) h.update(`${f.file} ${createHash('sha256').update(f.bytes).digest('hex')}\n`);
  return h.digest('hex');
}

/**
 * `unseen-frames.json` as written by build-unseen-frames.ts: one repository (repo, commit, licence,
 * source frame rate) and one line per sequence, frames given by their frame numbers.
 */
export interface FrameSequenceManifest {
  about: string;
  repo: string;
  commit: string;
  licence: string;
  source_fps: number;
  sequences: (Omit<PublicFrameSequence, 'repo' | 'commit' | 'licence' | 'source_fps' | 'frames'> & { frames: number[] })[];
}

export const frameFileName = (n: number) => `frame_${String(n).padStart(5, '0')}.jpg`;

export function loadPublicFrameSequences(): PublicFrameSequence[] {
  const m = JSON.parse(readFileSync(path.join(PUBLIC_FACES_DIR, 'unseen-frames.json'), 'utf8')) as FrameSequenceManifest;
  return m.sequences.map((s) => ({ ...s, repo: m.repo, commit: m.commit, licence: m.licence, source_fps: m.source_fps, frames: s.frames.map(frameFileName) }));
}

export const PUBLIC_FRAMES_DATA_DIR = path.join(PUBLIC_VIDEOS_DATA_DIR, 'frames');

export function frameSequenceDir(s: PublicFrameSequence): string {
  return path.join(PUBLIC_FRAMES_DATA_DIR, s.name);
}

/** The bytes of many `<commit>:<path>` blobs from one `git cat-file --batch` (one process, not one per frame). */
export function readBlobs(gitDir: string, specs: string[]): (Buffer | null)[] {
  const r = spawnSync('git', ['--git-dir', gitDir, 'cat-file', '--batch'], { input: specs.map((s) => `${s}\n`).join(''), maxBuffer: 1 << 30 });
  if (r.status !== 0 || !r.stdout) return specs.map(() => null);
  const out: (Buffer | null)[] = [];
  let at = 0;
  for (let i = 0; i < specs.length; i++) {
    const nl = r.stdout.indexOf(10, at);
    const header = r.stdout.subarray(at, nl).toString();
    const m = /^[0-9a-f]+ blob (\d+)$/.exec(header);
    if (!m) {
      out.push(null);
      at = nl + 1;
      continue;
    }
    const size = Number(m[1]);
    out.push(r.stdout.subarray(nl + 1, nl + 1 + size));
    at = nl + 1 + size + 1;
  }
  return out;
}

/**
 * Materialises the frame sequences of `unseen-frames.json` under .data/videos-public/frames/<name>
 * from the repository snapshot, checking each sequence's digest; a sequence that differs is missing,
 * never used. Returns the names missing.
 */
export function fetchPublicFrameSequences(): string[] {
  const missing: string[] = [];
  for (const s of loadPublicFrameSequences()) {
    const dir = frameSequenceDir(s);
    if (existsSync(dir)) {
      const frames = s.frames.map((file) => ({ file, bytes: existsSync(path.join(dir, file)) ? readFileSync(path.join(dir, file)) : Buffer.alloc(0) }));
      if (sequenceDigest(frames) === s.sha256) continue;
      rmSync(dir, { recursive: true, force: true });
    }
    const blobs = readBlobs(path.join(MIRROR_DIR, s.repo.replace('/', '+'), 'repo'), s.frames.map((f) => `${s.commit}:${s.dir}/${f}`));
    if (blobs.some((b) => !b) || sequenceDigest(s.frames.map((file, i) => ({ file, bytes: blobs[i]! }))) !== s.sha256) {
      missing.push(s.name);
      continue;
    }
    // Written beside and renamed into place: a half-written directory never looks fetched.
    const tmp = `${dir}.tmp`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    s.frames.forEach((file, i) => writeFileSync(path.join(tmp, file), blobs[i]!));
    renameSync(tmp, dir);
  }
  return missing;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = fetchPublicFaces();
  const videosMissing = fetchPublicVideos();
  const framesMissing = fetchPublicFrameSequences();
  console.log(JSON.stringify({ ready: r.ready, missing: r.missing.length, videos_missing: videosMissing, frame_sequences_missing: framesMissing.length }));
  if (r.missing.length) console.log(`missing (fetch the repositories first): ${r.missing.slice(0, 10).join(', ')}`);
}
