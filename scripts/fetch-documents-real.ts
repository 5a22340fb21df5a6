/**
 * `npm run fetch-documents-real [-- --set real|public] [--dest <dir>] [--from-mirror <dir>]`: rebuilds a real-image MRZ set
 * (specimen and sample documents from public GitHub repositories) on a clone without `../shared`,
 * from `bench/documents-real.manifest.jsonl` (source repository, commit, path, sha256, licence and
 * ground truth per image). Each file is fetched at its pinned commit and kept only if its sha256
 * matches; `ground_truth.jsonl` is written beside the images for `npm run bench:documents -- --real`.
 * `--set public` rebuilds the second, unseen set (`bench/documents-public.manifest.jsonl`, into
 * `.data/documents-public`, for `--public`). `--set public-tuning` rebuilds the public TUNING set
 * (`bench/documents-public-tuning.manifest.jsonl`, into `.data/documents-public-tuning`, for `--real`:
 * every image there is on the tuning side of the fixed hash split). `--from-mirror <dir>` takes each file from local git
 * snapshots (`<dir>/<owner>+<repo>/repo`, at the pinned commit) where raw downloads are not reachable.
 * The images are third-party material under their repositories' own terms (see the manifest's
 * `license`): for local measurement only, never committed or shipped.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../engine/assets.js';
import { parseMrz } from '../engine/document/mrz/parse.js';

interface Entry { file: string; source_repo: string; commit: string; path: string; sha256: string; license: string; format: string; capture: string; mrz_lines: string[]; mrz_alternatives?: string[][]; checks_valid: boolean }

const { values } = parseArgs({ options: { dest: { type: 'string' }, set: { type: 'string', default: 'real' }, 'from-mirror': { type: 'string' } } });
if (!['real', 'public', 'public-tuning'].includes(values.set!)) throw new Error('--set must be real, public or public-tuning');
const dest = path.resolve(values.dest ?? path.join(REPO_ROOT, '.data', `documents-${values.set}`));
const entries = readFileSync(path.join(REPO_ROOT, 'bench', `documents-${values.set}.manifest.jsonl`), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Entry);
// The typed ground truth is checked before anything is fetched: every line parses as an MRZ of its
// format and its check digits hold exactly when the manifest says they do (a typo fails here, not in a bench).
const badTruth = entries.filter((e) => parseMrz(e.mrz_lines, { extended: true })?.checkDigitsValid !== e.checks_valid);
if (badTruth.length) throw new Error(`ground truth disagrees with checks_valid: ${badTruth.map((e) => e.file).join(', ')}`);
const mirror = values['from-mirror'];
/** The file at its pinned commit from a local git snapshot of its repository. */
const fromMirror = (e: Entry): Buffer =>
  execFileSync('git', ['-C', path.join(mirror!, e.source_repo.replace('/', '+'), 'repo'), 'show', `${e.commit}:${e.path}`], { maxBuffer: 64 * 1024 * 1024 });
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
mkdirSync(dest, { recursive: true });
let failed = 0;
for (const e of entries) {
  const target = path.join(dest, e.file);
  if (existsSync(target) && sha(readFileSync(target)) === e.sha256) { console.log(`ok       ${e.file}`); continue; }
  const url = `https://raw.githubusercontent.com/${e.source_repo}/${e.commit}/${e.path.split('/').map(encodeURIComponent).join('/')}`;
  try {
    let data: Buffer;
    if (mirror) data = fromMirror(e);
    else {
      const res = await fetch(url, { signal: AbortSignal.timeout(120_000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      data = Buffer.from(await res.arrayBuffer());
    }
    if (sha(data) !== e.sha256) throw new Error('sha256 mismatch');
    writeFileSync(target, data);
    console.log(`fetched  ${e.file}`);
  } catch (err) {
    failed++;
    console.error(`FAILED   ${e.file} (${url}: ${(err as Error).message})`);
  }
}
writeFileSync(path.join(dest, 'ground_truth.jsonl'), entries.map((e) => JSON.stringify({ file: e.file, mrz_lines: e.mrz_lines, ...(e.mrz_alternatives ? { mrz_alternatives: e.mrz_alternatives } : {}), format: e.format, capture: e.capture, checks_valid: e.checks_valid, source_repo: e.source_repo, source_path: e.path, commit: e.commit, license: e.license, sha256: e.sha256 })).join('\n') + '\n');
console.log(failed ? `\n${failed} image(s) could not be fetched; the bench reads the rest.` : `\nall ${entries.length} images in ${dest}`);
process.exit(failed ? 1 : 0);
