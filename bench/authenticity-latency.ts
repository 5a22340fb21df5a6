/**
 * `npm run bench:authenticity-latency [-- --settings 9,8] [-- --n 60] [-- --rounds 1] [-- --from set|sources]`
 *
 * Authenticity latency per image, in ONE process, on REAL held-out files: wall time (performance.now
 * around `engine.analyze`) and CPU time (process.cpuUsage user + system over the same call, which
 * includes libvips' worker threads), p50 / p95 per settings version. Several settings run on the
 * same files, alternating per file, so a change of machine load hits them alike. Meant for a quiet
 * machine (the issue's target is p50 ≤ 500 ms wall); the load average at start and end is printed
 * because on a shared machine the wall figures mean little.
 *
 * Files: `--from set` (default when .data/authenticity/real/set exists) = every `--n`-th held-out
 * file of the real set (genuine and attacks, made by tools/authenticity/real/make-real-set.ts);
 * `--from sources` = the held-out genuine source files themselves (tools/authenticity/real/fetch-real.ts
 * only, a few seconds). A warm-up image per engine is not timed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { AUTHENTICITY_SETTINGS_V8, AUTHENTICITY_SETTINGS_V9, createAuthenticityEngine, DEFAULT_AUTHENTICITY_SETTINGS, type AuthenticityEngine, type AuthenticitySettings } from '../engine/authenticity/index.js';
import { fetchReal, sourcePath } from '../tools/authenticity/real/fetch-real.js';
import { loadSetItems, SET_DIR, SET_MANIFEST } from '../tools/authenticity/real/make-real-set.js';
import { isHeldOut, loadSources } from '../tools/authenticity/real/sources.js';

const { values } = parseArgs({
  options: {
    settings: { type: 'string' },
    n: { type: 'string', default: '60' },
    rounds: { type: 'string', default: '1' },
    from: { type: 'string' },
  },
});
const BY_VERSION: Record<string, AuthenticitySettings> = { '8': AUTHENTICITY_SETTINGS_V8, '9': AUTHENTICITY_SETTINGS_V9 };
const settings = values.settings
  ? values.settings.split(',').map((v) => {
      const s = BY_VERSION[v];
      if (!s) throw new Error(`--settings: unknown version ${v} (${Object.keys(BY_VERSION).join(', ')})`);
      return s;
    })
  : [DEFAULT_AUTHENTICITY_SETTINGS];
const from = values.from ?? (existsSync(SET_MANIFEST) ? 'set' : 'sources');
let files: string[];
if (from === 'set') {
  files = loadSetItems().filter((r) => r.heldout).map((r) => path.join(SET_DIR, r.file));
} else if (from === 'sources') {
  fetchReal();
  files = loadSources().filter((s) => isHeldOut(s.sha256)).map(sourcePath);
} else throw new Error('--from set|sources');
// An even sample over the sorted list (the set is ordered by kind and attack), at most --n files.
files.sort();
const n = Math.max(1, Math.min(files.length, Number(values.n)));
const sample = Array.from({ length: n }, (_, i) => files[Math.floor((i * files.length) / n)]!);

const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
};
const load0 = loadavg().map((v) => Math.round(v * 100) / 100);
const engines: AuthenticityEngine[] = [];
for (const s of settings) engines.push(await createAuthenticityEngine(s));
const wall: number[][] = settings.map(() => []);
const cpu: number[][] = settings.map(() => []);
let errors = 0;
try {
  const warm = readFileSync(sample[0]!);
  for (const e of engines) await e.analyze({ bytes: warm, kind: 'document_front' });
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const file of sample) {
      const bytes = readFileSync(file);
      for (let k = 0; k < engines.length; k++) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        try {
          await engines[k]!.analyze({ bytes, kind: 'document_front' });
        } catch {
          // image_too_small and the like: a clean per-image error, not a latency sample.
          errors++;
          continue;
        }
        const t1 = performance.now();
        const c = process.cpuUsage(c0);
        wall[k]!.push(t1 - t0);
        cpu[k]!.push((c.user + c.system) / 1000);
      }
    }
  }
} finally {
  for (const e of engines) await e.close();
}
const report = {
  from,
  files: sample.length,
  rounds: Number(values.rounds),
  per_image_errors: errors,
  loadavg_start: load0,
  loadavg_end: loadavg().map((v) => Math.round(v * 100) / 100),
  cpus_note: 'cpu_ms = process user+system time during analyze (all threads); wall_ms = elapsed',
  settings: Object.fromEntries(
    settings.map((s, k) => [
      `v${s.version}`,
      {
        n: wall[k]!.length,
        wall_ms: { p50: Math.round(q(wall[k]!, 0.5)), p95: Math.round(q(wall[k]!, 0.95)) },
        cpu_ms: { p50: Math.round(q(cpu[k]!, 0.5)), p95: Math.round(q(cpu[k]!, 0.95)) },
      },
    ]),
  ),
};
console.log(JSON.stringify(report, null, 2));
