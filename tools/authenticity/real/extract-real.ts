import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runForensics } from '../../../engine/authenticity/forensics-pipeline.js';
import { AUTHENTICITY_SETTINGS_V4, CAMERA_HEADERS_V1, type AuthenticitySettings } from '../../../engine/authenticity/settings.js';
import { SET_DIR, SET_MANIFEST, type RealSetItem } from './make-real-set.js';

/**
 * `tsx engine/authenticity/real/extract-real.ts [k/n]`: the engine's own forensics pipeline
 * (runForensics, feature set v8 since wt26a: v7 plus the region scan) on every file of the real set → set/features.jsonl, with the
 * metadata rule findings (code:strength) so that the rules can be measured on real images too.
 * The v7 header check leaves the row's own source out of the camera catalogue (a tuning image
 * never finds its own table); rows written with feature set v6 get those values from
 * add-header-features.ts (the same function).
 */
export const EXTRACT_SETTINGS: AuthenticitySettings = {
  ...AUTHENTICITY_SETTINGS_V4,
  version: 'extract',
  featureSet: 'v8',
  cameraHeaders: { ...CAMERA_HEADERS_V1 },
};
export const REAL_FEATURES = path.join(SET_DIR, 'features.jsonl');

// `k/n` shares the rows between n processes; `--tuning` skips held-out rows (the bench runs
// those through the engine itself; training never reads them).
const [shard, shards] = (process.argv.find((a) => /^\d+\/\d+$/.test(a)) ?? '0/1').split('/').map(Number) as [number, number];
const tuningOnly = process.argv.includes('--tuning');
const done = new Set<string>();
if (existsSync(REAL_FEATURES)) {
  for (const l of readFileSync(REAL_FEATURES, 'utf8').split('\n')) {
    try {
      if (l.trim()) done.add((JSON.parse(l) as { file: string }).file);
    } catch {
      // a line cut short by an interrupted run: that file is simply extracted again
    }
  }
}
const rows = readFileSync(SET_MANIFEST, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as RealSetItem);
let n = 0;
for (const [i, row] of rows.entries()) {
  if (i % shards !== shard || done.has(row.file) || (tuningOnly && row.heldout)) continue;
  try {
    const r = await runForensics({ bytes: readFileSync(path.join(SET_DIR, row.file)), headerExcludeSources: [row.source] }, EXTRACT_SETTINGS);
    const rules = r.metadata.signals.map((s) => `${s.code}:${s.strength}`);
    writeFileSync(REAL_FEATURES, JSON.stringify({ ...row, rules, features: Array.from(r.features.values) }) + '\n', { flag: 'a' });
  } catch (err) {
    process.stderr.write(`${row.file}: ${(err as Error).message}\n`);
  }
  if (++n % 50 === 0) process.stderr.write(`extract ${shard}/${shards}: ${n}\n`);
}
