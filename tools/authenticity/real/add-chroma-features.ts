import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromaLikelihood, FEATURE_SETS } from '../../../engine/authenticity/features.js';
import { decodeForForensics } from '../../../engine/authenticity/image/decode.js';
import { readAllCoefficients } from '../../../engine/authenticity/image/jpeg-coefficients.js';
import { AUTHENTICITY_SETTINGS_V4 } from '../../../engine/authenticity/settings.js';

// As extract-real.ts (not imported: that module runs its extraction when loaded).
const EXTRACT_SETTINGS = { ...AUTHENTICITY_SETTINGS_V4, version: 'extract', featureSet: 'v5' as const };

/**
 * `tsx tools/authenticity/real/add-chroma-features.ts <features.jsonl> <dir of its files> [k/n]`
 *
 * Feature set v5 = v4 + the chroma likelihood (26 values). Rows extracted with feature set v4
 * (117 values) get the 26 values appended, computed by the engine's own code (the same
 * `chromaLikelihood` on the same native crop as `runForensics`), instead of re-running the whole
 * pipeline; rows that already have v5 are kept. Writes <features.jsonl>.v5-<k> per shard; with
 * `--merge` joins the shards into features.jsonl (the old file is kept as .v4.bak).
 * `tools/authenticity/real/check-chroma-patch.ts` compares patched rows with full extraction.
 */
const [file, dir] = process.argv.slice(2);
if (!file || !dir) throw new Error('usage: add-chroma-features.ts <features.jsonl> <dir> [k/n] [--merge]');
const [shard, shards] = (process.argv.find((a) => /^\d+\/\d+$/.test(a)) ?? '0/1').split('/').map(Number) as [number, number];
const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim());
if (process.argv.includes('--merge')) {
  const byFile = new Map<string, string>();
  for (let k = 0; k < shards; k++) for (const l of readFileSync(`${file}.v5-${k}`, 'utf8').split('\n').filter((x) => x.trim())) byFile.set((JSON.parse(l) as { file: string }).file, l);
  const merged = lines.map((l) => byFile.get((JSON.parse(l) as { file: string }).file) ?? l);
  renameSync(file, `${file}.v4.bak`);
  writeFileSync(file, merged.join('\n') + '\n');
  process.stderr.write(`merged ${byFile.size} patched rows of ${lines.length}\n`);
  process.exit(0);
}
const out: string[] = [];
for (const [i, l] of lines.entries()) {
  if (i % shards !== shard) continue;
  const row = JSON.parse(l) as { file: string; features: number[]; heldout?: boolean };
  // Held-out rows are never read by training: left as they are (the bench runs the engine on them).
  if (row.features.length === FEATURE_SETS.v5 || row.heldout) {
    out.push(l);
    continue;
  }
  if (row.features.length !== FEATURE_SETS.v4) throw new Error(`${row.file}: ${row.features.length} values`);
  const bytes = readFileSync(path.join(dir, row.file));
  const image = await decodeForForensics(bytes, EXTRACT_SETTINGS);
  const chroma = chromaLikelihood(image.format === 'jpeg' ? readAllCoefficients(bytes) : null, image.native);
  const extra = Array.from(new Float32Array([...chroma.cb.features, ...chroma.cr.features].map((v) => (Number.isFinite(v) ? v : 0))));
  out.push(JSON.stringify({ ...row, features: [...row.features, ...extra] }));
  if (out.length % 100 === 0) process.stderr.write(`chroma ${shard}/${shards}: ${out.length}\n`);
}
writeFileSync(`${file}.v5-${shard}`, out.join('\n') + '\n');
process.stderr.write(`chroma ${shard}/${shards}: done ${out.length}\n`);
