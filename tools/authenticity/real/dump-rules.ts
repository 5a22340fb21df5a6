import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { analyzeMetadata } from '../../../engine/authenticity/metadata/metadata-analysis.js';
import { AUTHENTICITY_SETTINGS_V6 } from '../../../engine/authenticity/settings.js';
import { SET_DIR, SET_MANIFEST, type RealSetItem } from './make-real-set.js';

/**
 * `tsx tools/authenticity/real/dump-rules.ts <out.jsonl>`: the metadata rule findings of settings
 * v6 (the released rules, unchanged in v8) on every TUNING file of the real set, so that
 * oof_report.py can put the rules on top of out-of-fold model risks (an approximation of the
 * engine on tuning rows; held-out rows are not read).
 */
const out = process.argv[2];
if (!out) throw new Error('usage: dump-rules.ts <out.jsonl>');
const rows = readFileSync(SET_MANIFEST, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as RealSetItem).filter((r) => !r.heldout);
const lines: string[] = [];
for (const r of rows) {
  const meta = await analyzeMetadata(readFileSync(path.join(SET_DIR, r.file)), { width: 0, height: 0 }, AUTHENTICITY_SETTINGS_V6);
  lines.push(JSON.stringify({ file: r.file, rules: meta.signals.map((s) => `${s.code}:${s.strength}`) }));
}
writeFileSync(out, lines.join('\n') + '\n');
console.log(`rules of ${lines.length} tuning files → ${out}`);
