import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadSources, REAL_DATA_DIR, REAL_DIR, type RealSource } from './sources.js';

/**
 * Materialises the real genuine images of `sources.json` under .data/authenticity/real/genuine
 * from the GitHub snapshots (fetched with the `fetch` tool into /work/.mirror, or any clone of the
 * named repository at the pinned commit: set REAL_MIRROR_DIR=<dir holding owner+name/repo>).
 * Every file is checked against its pinned sha256. `../shared/documents-real` files are read in
 * place (never copied into the project). Prints how many files are ready.
 */
export const MIRROR_DIR = process.env.REAL_MIRROR_DIR ?? '/work/.mirror';
export const SHARED_DOCS = path.resolve(REAL_DIR, '../../../../shared/documents-real');

/** Path of a source's bytes on this machine (after `fetch-real`). */
export function sourcePath(s: RealSource): string {
  if (s.repo === 'shared/documents-real') return path.join(SHARED_DOCS, s.path);
  return path.join(REAL_DATA_DIR, 'genuine', `${s.id}.jpg`);
}

export function fetchReal(): { ready: number; missing: string[] } {
  mkdirSync(path.join(REAL_DATA_DIR, 'genuine'), { recursive: true });
  const missing: string[] = [];
  let ready = 0;
  for (const s of loadSources()) {
    const target = sourcePath(s);
    let bytes: Buffer | null = existsSync(target) ? readFileSync(target) : null;
    if (!bytes && s.commit) {
      try {
        const gitDir = path.join(MIRROR_DIR, s.repo.replace('/', '+'), 'repo');
        bytes = execFileSync('git', ['--git-dir', gitDir, 'show', `${s.commit}:${s.path}`], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
      } catch {
        bytes = null;
      }
    }
    if (!bytes || createHash('sha256').update(bytes).digest('hex') !== s.sha256) {
      missing.push(s.id);
      continue;
    }
    if (!existsSync(target)) writeFileSync(target, bytes);
    ready++;
  }
  return { ready, missing };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = fetchReal();
  console.log(JSON.stringify({ ready: r.ready, missing: r.missing.length }));
  if (r.missing.length) console.log(`missing (fetch the repositories first): ${r.missing.slice(0, 10).join(', ')}`);
}
