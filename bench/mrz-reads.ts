/**
 * `npm run bench:mrz-reads [-- --settings vN] [--scales 1,0.3,0.22]`: how often a single MRZ read
 * that passes every one of its check digits is wrong, by reader, on TUNING images only.
 *
 * Every read the scan makes (`MrzScan.attempts`: tesseract's preprocessing variants, the glyph
 * reader, PP-OCRv4, the MRZ recogniser) on each tuning image of ../shared/documents-real (held-out
 * images never) and of .data/documents-public-tuning when fetched, at each scale (1 = as captured;
 * below 1 the small print of `bench:documents --scale`). A read counts when its lines pass all its
 * check digits; it is wrong when they are not the truth (or one of its alternatives). "Outside the
 * name line" counts the wrong ones that differ anywhere but the name line, which no check digit
 * covers (nationality and sex are not covered either, and are counted there).
 *
 * Why it matters: the check digits are the reader's only proof, and a read that passes them while
 * wrong is one confirmation away from a silent misread. The scan's confirmation rules (two reads,
 * names printed as they stand, document engine 3.5's swap guard) are what stand between the two;
 * this bench says how much they have to stop. Document engine 3.5's figures (engine/document/README.md)
 * come from it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CURRENT_ENGINE_PROFILE } from '../domain/engine-profile.js';
import { REPO_ROOT } from '../engine/assets.js';
import { createDocumentEngine, DOCUMENT_SETTINGS_BY_NAME } from '../engine/document/index.js';
import { parseMrz } from '../engine/document/mrz/parse.js';
import { scanPlausible } from '../engine/document/mrz/scan.js';
import { engineProfile } from '../engine/profiles.js';
import { smallPrint, tuningImages } from './documents-real.js';

const { values } = parseArgs({ options: { settings: { type: 'string' }, scales: { type: 'string', default: '1,0.3,0.22' } } });
const scales = values.scales!.split(',').map(Number);
if (scales.some((s) => !(s > 0 && s <= 1))) throw new Error('--scales: factors in (0, 1]');
const settings = values.settings ? DOCUMENT_SETTINGS_BY_NAME[values.settings] : engineProfile(CURRENT_ENGINE_PROFILE).document;
if (!settings) throw new Error(`--settings must be one of ${Object.keys(DOCUMENT_SETTINGS_BY_NAME).join(', ')}`);

const { dirs: sets, images: truths } = tuningImages();
const engine = await createDocumentEngine(settings);
// What the scan itself holds a read to beyond its check digits, with no template (2.1's state codes,
// 3.6's ICAO fields): a wrong read it calls implausible is never valid, so it neither confirms nor votes as one.
const plausible = scanPlausible(settings.scan ?? {});
console.log(`# Single MRZ reads that pass every check digit, by reader: ${truths.length} tuning images (${sets.map((d) => path.relative(REPO_ROOT, d)).join(', ')}; held-out images never), scales ${scales.join(', ')}, ${settings.version}\n`);

const NAME_LINE: Record<number, number> = { 2: 0, 3: 2 };
const COUNTS = { reads: 0, passing: 0, wrong: 0, outsideName: 0, implausible: 0, rightImplausible: 0 };
type Counts = typeof COUNTS;
const bySource = new Map<string, Counts>();
let images = 0;
try {
  for (const { dir, t } of truths) {
    const raw = readFileSync(path.join(dir, t.file));
    const right = [t.mrz_lines, ...(t.mrz_alternatives ?? [])].map((x) => x.join('|'));
    for (const scale of scales) {
      const img = scale === 1 ? raw : await smallPrint(raw, scale);
      if (!img) continue;
      images++;
      const scan = await engine.scanMrz(img);
      for (const a of scan.attempts ?? []) {
        const e = bySource.get(a.source) ?? { ...COUNTS };
        bySource.set(a.source, e);
        e.reads++;
        if (!a.lines || a.checks === 0 || a.checksOk !== a.checks) continue;
        e.passing++;
        const parsed = parseMrz(a.lines, { extended: true });
        const implausible = !!parsed && !!plausible && !plausible(parsed);
        if (right.includes(a.lines.join('|'))) { if (implausible) e.rightImplausible++; continue; }
        e.wrong++;
        const nameLine = NAME_LINE[a.lines.length] ?? 0;
        if (a.lines.some((l, li) => li !== nameLine && l !== t.mrz_lines[li])) e.outsideName++;
        if (implausible) e.implausible++;
      }
      process.stderr.write('.');
    }
  }
} finally {
  await engine.close();
}
process.stderr.write('\n');
const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} %` : 'n/a');
console.log(`${images} scans; "implausible": the scan's own rules beyond the check digits (state codes; from 3.6 ICAO's document code and sex letter) refuse the read, so it is never valid\n\n| reader | reads | pass every check digit | of those wrong | wrong outside the name line | wrong and implausible | right and implausible |\n|---|---|---|---|---|---|---|`);
const rows = [...bySource.entries()].sort((a, b) => b[1].reads - a[1].reads);
for (const [source, e] of rows) console.log(`| ${source} | ${e.reads} | ${e.passing} | ${e.wrong} (${pct(e.wrong, e.passing)}) | ${e.outsideName} | ${e.implausible} | ${e.rightImplausible} |`);
const sum = Object.fromEntries(Object.keys(COUNTS).map((k) => [k, rows.reduce((n, [, e]) => n + e[k as keyof Counts], 0)])) as Counts;
console.log(`| **all** | ${sum.reads} | ${sum.passing} | ${sum.wrong} (${pct(sum.wrong, sum.passing)}) | ${sum.outsideName} | ${sum.implausible} | ${sum.rightImplausible} |`);
