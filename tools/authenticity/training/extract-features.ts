import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPO_ROOT } from '../../../platform/paths.js';
import { FEATURE_NAMES } from '../../../engine/authenticity/features.js';
import { runForensics } from '../../../engine/authenticity/forensics-pipeline.js';
import { AUTHENTICITY_SETTINGS_V4, CAMERA_HEADERS_V1 } from '../../../engine/authenticity/settings.js';
import type { ManifestRow } from './corpus.js';
import { createRng } from './rng.js';

/**
 * `tsx tools/authenticity/training/extract-features.ts <corpusDir> [--follow] [k/n]`
 * Runs the engine's own forensics pipeline (runForensics: the exact code used at inference) on
 * every file of a corpus manifest and writes features.jsonl beside it. Zone boxes are passed for
 * a seeded half of the files, so the model learns to work with and without them.
 * With --follow it keeps polling the manifest while the corpus is still being generated.
 */
/**
 * The full vector (feature set v8: chroma likelihood, camera header check, region scan; v6's per-tile grid search stays 0);
 * older models read their prefix. Generated files have no real source to leave out of the catalogue.
 */
const EXTRACT_SETTINGS = { ...AUTHENTICITY_SETTINGS_V4, version: 'extract', featureSet: 'v8' as const, cameraHeaders: { ...CAMERA_HEADERS_V1 } };

export function zonesGiven(file: string): boolean {
  return createRng(0x5eed).fork(file).chance(0.5);
}

const [dirArg, ...flags] = process.argv.slice(2);
const dir = path.resolve(dirArg ?? path.join(REPO_ROOT, '.data', 'authenticity', 'corpus', 'train'));
const follow = flags.includes('--follow');
// `--shard k/n`: process rows k, k+n, … so that n processes can share the work (appends are line-sized).
const shardArg = flags.find((f) => /^\d+\/\d+$/.test(f)) ?? '0/1';
const [shard, shards] = shardArg.split('/').map(Number) as [number, number];
const manifest = path.join(dir, 'manifest.jsonl');
const out = path.join(dir, 'features.jsonl');
const done = new Set<string>();
if (existsSync(out)) for (const l of readFileSync(out, 'utf8').split('\n')) if (l.trim()) done.add((JSON.parse(l) as { file: string }).file);

let idle = 0;
for (;;) {
  const rows = existsSync(manifest)
    ? readFileSync(manifest, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as ManifestRow)
    : [];
  const todo = rows.filter((r, i) => i % shards === shard && !done.has(r.file));
  for (const row of todo) {
    const withZones = zonesGiven(row.file);
    const bytes = readFileSync(path.join(dir, row.file));
    const r = await runForensics({ bytes, zones: withZones ? row.zones : [] }, EXTRACT_SETTINGS);
    const line = { file: row.file, label: row.label, doc: row.doc, zones_given: withZones, features: Array.from(r.features.values) };
    writeFileSync(out, JSON.stringify(line) + '\n', { flag: 'a' });
    done.add(row.file);
  }
  if (todo.length) process.stderr.write(`features: ${done.size} files (${FEATURE_NAMES.length} each)\n`);
  if (!follow) break;
  idle = todo.length ? 0 : idle + 1;
  if (idle > 60) break;
  await sleep(10_000);
}
