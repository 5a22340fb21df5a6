import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runForensics } from '../../../engine/authenticity/forensics-pipeline.js';
import { AUTHENTICITY_SETTINGS_V4 } from '../../../engine/authenticity/settings.js';

/**
 * `tsx tools/authenticity/real/check-chroma-patch.ts <features.jsonl> <dir> [n]`: re-extracts n
 * tuning rows (spread over the file) with the full pipeline (feature set v5) and prints the largest
 * difference from the stored vector (rows patched by add-chroma-features.ts must match exactly).
 */
const [file, dir, count = '6'] = process.argv.slice(2);
if (!file || !dir) throw new Error('usage: check-chroma-patch.ts <features.jsonl> <dir> [n]');
const rows = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as { file: string; heldout?: boolean; features: number[] }).filter((r) => !r.heldout);
const step = Math.max(1, Math.floor(rows.length / Number(count)));
let worst = 0;
for (let i = 0; i < rows.length; i += step) {
  const row = rows[i]!;
  const r = await runForensics({ bytes: readFileSync(path.join(dir, row.file)) }, { ...AUTHENTICITY_SETTINGS_V4, version: 'extract', featureSet: 'v5' });
  const v = Array.from(r.features.values);
  const diff = Math.max(...v.map((x, k) => Math.abs(x - row.features[k]!)));
  worst = Math.max(worst, diff);
  console.log(`${row.file}: ${v.length} values, max |diff| ${diff}`);
}
console.log(`max |diff| over rows: ${worst}`);
