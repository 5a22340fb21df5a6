import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FEATURE_SETS } from '../../../engine/authenticity/features.js';
import { headerFeatures, loadCameraHeaders } from '../../../engine/authenticity/metadata/camera-headers.js';
import { lumaTableOf } from '../../../engine/authenticity/metadata/jpeg-structure.js';
import { analyzeMetadata } from '../../../engine/authenticity/metadata/metadata-analysis.js';
import { AUTHENTICITY_SETTINGS_V4, CAMERA_HEADERS_V1 } from '../../../engine/authenticity/settings.js';

/**
 * `tsx tools/authenticity/real/add-header-features.ts <features.jsonl> <dir of its files> [--synthetic] [--recompute]`
 *
 * Feature set v7 = v6's layout with the grid-tile values at 0 (not run) + the camera header check
 * (7 values, metadata/camera-headers.ts). Rows extracted with feature set v6 (155 values) get their
 * grid-tile values zeroed and the 7 values appended by the engine's own code
 * (analyzeMetadata + headerFeatures, as runForensics does), leaving the row's own real source out
 * of the catalogue (`--synthetic`: generated files, nothing to leave out). Header-only, so it takes
 * seconds instead of a re-extraction; rows that already have v7 are kept. Held-out rows are left
 * as they are (training never reads them; the bench runs the engine). The old file is kept as .v6.bak.
 * `tools/authenticity/real/check-header-patch.ts` compares patched rows with full extraction.
 */
const [file, dir] = process.argv.slice(2);
if (!file || !dir) throw new Error('usage: add-header-features.ts <features.jsonl> <dir> [--synthetic]');
const synthetic = process.argv.includes('--synthetic');
// `--recompute`: v7 rows get their 7 header values computed again (after a change to the check).
const recompute = process.argv.includes('--recompute');
const catalogue = loadCameraHeaders(CAMERA_HEADERS_V1.file, CAMERA_HEADERS_V1.sha256);
const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim());
const out: string[] = [];
let patched = 0;
for (const l of lines) {
  let row: { file: string; features: number[]; heldout?: boolean; source?: string };
  try {
    row = JSON.parse(l) as typeof row;
  } catch {
    continue; // a line cut short by an interrupted extraction: extract-real.ts redoes that file
  }
  if ((row.features.length === FEATURE_SETS.v7 && !recompute) || row.heldout) {
    out.push(l);
    continue;
  }
  if (row.features.length !== FEATURE_SETS.v6 && row.features.length !== FEATURE_SETS.v7) throw new Error(`${row.file}: ${row.features.length} values`);
  const bytes = readFileSync(path.join(dir, row.file));
  const meta = await analyzeMetadata(bytes, { width: 0, height: 0 }, AUTHENTICITY_SETTINGS_V4);
  const luma = lumaTableOf(meta.structure.quantTables)?.values ?? null;
  const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
  const extra = headerFeatures(catalogue, meta.camera, isJpeg ? luma : null, synthetic || !row.source ? [] : [row.source]);
  // Feature set v7 does not run the per-tile grid search: its 12 values are 0 there.
  const base = row.features.slice(0, FEATURE_SETS.v6).map((v, i) => (i >= FEATURE_SETS.v5 ? 0 : v));
  out.push(JSON.stringify({ ...row, features: [...base, ...Array.from(new Float32Array(extra))] }));
  patched++;
}
renameSync(file, `${file}.v6.bak`);
writeFileSync(file, out.join('\n') + '\n');
process.stderr.write(`header features: patched ${patched} of ${lines.length} rows\n`);
