import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../../engine/assets.js';
import { runForensics } from '../../../engine/authenticity/forensics-pipeline.js';
import { DEFAULT_AUTHENTICITY_SETTINGS } from '../../../engine/authenticity/settings.js';
import { buildDocumentSamples, type Split } from './corpus.js';

/**
 * `tsx tools/authenticity/training/check-reproducibility.ts [split] [doc...]`
 * Regenerates the given documents into a scratch folder and compares, file by file, the JPEG
 * bytes and the feature vectors with the stored corpus (.data/authenticity/corpus/<split>).
 * Exits 1 on any difference. Features are compared with the zone choice extract-features made.
 */
const [splitArg = 'train', ...docArgs] = process.argv.slice(2);
const split = splitArg as Split;
const docs = docArgs.length ? docArgs.map(Number) : [3, 125];
const stored = path.join(REPO_ROOT, '.data', 'authenticity', 'corpus', split);
const features = new Map<string, { zones_given: boolean; features: number[] }>();
for (const line of readFileSync(path.join(stored, 'features.jsonl'), 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const row = JSON.parse(line) as { file: string; zones_given: boolean; features: number[] };
  features.set(row.file, row);
}
const scratch = mkdtempSync(path.join(os.tmpdir(), 'authenticity-repro-'));
const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');
let differences = 0;
try {
  for (const doc of docs) {
    for (const row of await buildDocumentSamples(split, doc, scratch)) {
      const sameBytes = sha(path.join(scratch, row.file)) === sha(path.join(stored, row.file));
      const ref = features.get(row.file);
      let sameFeatures: boolean | null = null;
      if (ref) {
        const r = await runForensics({ bytes: readFileSync(path.join(scratch, row.file)), zones: ref.zones_given ? row.zones : [] }, DEFAULT_AUTHENTICITY_SETTINGS);
        sameFeatures = Array.from(r.features.values).every((v, i) => v === ref.features[i]);
      }
      if (!sameBytes || sameFeatures === false) differences++;
      process.stdout.write(`${row.file} bytes:${sameBytes ? 'identical' : 'DIFFERENT'} features:${sameFeatures === null ? 'n/a' : sameFeatures ? 'identical' : 'DIFFERENT'}\n`);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
process.exitCode = differences ? 1 : 0;
