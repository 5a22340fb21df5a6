import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runForensics } from '../../../engine/authenticity/forensics-pipeline.js';
import { AUTHENTICITY_SETTINGS_V4, CAMERA_HEADERS_V1 } from '../../../engine/authenticity/settings.js';

/**
 * `tsx tools/authenticity/real/check-header-patch.ts <features.jsonl> <dir> [n]`: re-extracts n
 * patched rows (add-header-features.ts) with the full pipeline at feature set v7 (own source left
 * out, as extract-real.ts does) and prints the largest absolute difference over all values.
 */
const [file, dir, nArg] = process.argv.slice(2);
if (!file || !dir) throw new Error('usage: check-header-patch.ts <features.jsonl> <dir> [n]');
const settings = { ...AUTHENTICITY_SETTINGS_V4, version: 'extract', featureSet: 'v7' as const, cameraHeaders: { ...CAMERA_HEADERS_V1 } };
const rows = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as { file: string; source: string; features: number[]; heldout: boolean });
const pick = rows.filter((r) => !r.heldout).filter((_, i) => i % 37 === 5).slice(0, Number(nArg ?? 6));
let worst = 0;
for (const r of pick) {
  const f = await runForensics({ bytes: readFileSync(path.join(dir, r.file)), headerExcludeSources: [r.source] }, settings);
  const d = Math.max(...Array.from(f.features.values).map((v, i) => Math.abs(v - r.features[i]!)));
  worst = Math.max(worst, d);
  console.log(r.file, 'max |diff|', d);
}
console.log(JSON.stringify({ rows: pick.length, max_abs_diff: worst }));
