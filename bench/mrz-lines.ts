/**
 * `npm run bench:mrz-lines [-- --models a.onnx,b.onnx] [--scales 1,0.3,0.22]`: the MRZ line
 * recogniser alone (engine/document/mrz/mrzrec.ts), on line crops of TUNING images only.
 *
 * The crops are the ones the scan reads: each tuning image of ../shared/documents-real (held-out
 * images never) and of .data/documents-public-tuning when fetched, at each scale (1 = as captured;
 * below 1 the small print of `bench:documents --scale`), scanned with the current engine; of the
 * band crops it cut (the current engine profile's scan), the one whose `splitTextLines` split gives the document's line count and whose
 * read by mrz-rec-1 is closest to the truth is kept (a band that is not the MRZ, or a
 * read more than half wrong, is left out and counted). Choosing the crop with the truth is right
 * here and nowhere else: this measures reading given the band, not the scan (that is
 * `bench:documents`).
 *
 * The reference model is mrz-rec-1 (synthetic lines only), which also picks the crop. mrz-rec-3, which
 * document engine 3.2 runs, learned from these very crops (tools/mrz-rec/real_cv.py): its figures here
 * are not a measure of it; the cross-validation in tools/mrz-rec/README.md "Real lines" is.
 *
 * `--dump DIR` also writes the kept crops, `DIR/<scale>/<image>-<line>.png` with `index.json` (file,
 * text, image), for tools/mrz-rec/real_cv.py (does a reader learn from real lines?).
 *
 * Prints, per scale and model: lines, exact lines, character error rate (Levenshtein over the
 * truth's characters), lines exact by any model, and milliseconds per line. tools/mrz-rec/README.md
 * reports its figures.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CURRENT_ENGINE_PROFILE } from '../domain/engine-profile.js';
import { REPO_ROOT } from '../engine/assets.js';
import { levenshtein } from '../engine/document/compare.js';
import { createDocumentEngine, MRZ_REC_1 } from '../engine/document/index.js';
import { engineProfile } from '../engine/profiles.js';
import { MRZ_REC_DIR, MrzLineRecognizer } from '../engine/document/mrz/mrzrec.js';
import { splitTextLines } from '../engine/document/mrz/scan.js';
import { smallPrint, tuningImages } from './documents-real.js';

const { values } = parseArgs({ options: { models: { type: 'string' }, dump: { type: 'string' }, scales: { type: 'string', default: '1,0.3,0.22' } } });
const extra = (values.models ?? '').split(',').filter(Boolean);
const scales = values.scales!.split(',').map(Number);
if (scales.some((s) => !(s > 0 && s <= 1))) throw new Error('--scales: factors in (0, 1]');

const load = async (file: string) => MrzLineRecognizer.create({ model: path.basename(file), sha256: createHash('sha256').update(readFileSync(file)).digest('hex') }, path.dirname(file));
const models = [{ name: MRZ_REC_1.model, rec: await MrzLineRecognizer.create(MRZ_REC_1, MRZ_REC_DIR) }, ...(await Promise.all(extra.map(async (f) => ({ name: path.basename(f), rec: await load(f) }))))];
const reference = models[0]!.rec;

const { dirs: sets, images: truths } = tuningImages();
console.log(`# MRZ line recogniser alone: line crops of ${truths.length} tuning images (${sets.map((d) => path.relative(REPO_ROOT, d)).join(', ')}; held-out images never)`);

const engine = await createDocumentEngine(engineProfile(CURRENT_ENGINE_PROFILE).document);
const debug = mkdtempSync(path.join(os.tmpdir(), 'mrz-lines-'));
// The scan writes each band's first crop here (its debug hook, `crop-<band>-<turn>.png`).
process.env.MRZ_DEBUG_DIR = debug;
try {
  console.log('\n| scale | model | lines | exact | CER | exact by any model | ms / line |\n|---|---|---|---|---|---|---|');
  for (const scale of scales) {
    const lines: { png: Buffer; text: string; image: string }[] = [];
    let left = 0;
    for (const { dir, t } of truths) {
      const raw = readFileSync(path.join(dir, t.file));
      const bytes = scale === 1 ? raw : await smallPrint(raw, scale);
      if (!bytes) { left++; continue; }
      rmSync(debug, { recursive: true, force: true });
      mkdirSync(debug, { recursive: true });
      await engine.scanMrz(bytes).catch(() => undefined);
      let best: { d: number; parts: Buffer[] } | null = null;
      for (const f of readdirSync(debug).filter((f) => f.startsWith('crop-')).sort()) {
        const parts = await splitTextLines(readFileSync(path.join(debug, f)));
        if (!parts || parts.length !== t.mrz_lines.length) continue;
        let d = 0;
        for (let i = 0; i < parts.length; i++) d += levenshtein((await reference.read(parts[i]!)).text, t.mrz_lines[i]!);
        if (!best || d < best.d) best = { d, parts };
      }
      if (!best || best.d > 0.5 * t.mrz_lines.join('').length) { left++; continue; }
      best.parts.forEach((png, i) => lines.push({ png, text: t.mrz_lines[i]!, image: t.file }));
    }
    if (values.dump) {
      const out = path.join(values.dump, String(scale));
      mkdirSync(out, { recursive: true });
      const index = lines.map((l, i) => ({ file: `${l.image}-${i}.png`, text: l.text, image: l.image }));
      index.forEach((e, i) => writeFileSync(path.join(out, e.file), lines[i]!.png));
      writeFileSync(path.join(out, 'index.json'), JSON.stringify(index, null, 1));
    }
    const chars = lines.reduce((n, l) => n + l.text.length, 0);
    const reads = await Promise.all(models.map(async (m) => {
      const t0 = performance.now();
      const texts: string[] = [];
      for (const l of lines) texts.push((await m.rec.read(l.png)).text);
      return { texts, ms: (performance.now() - t0) / Math.max(1, lines.length) };
    }));
    const any = lines.filter((l, i) => reads.some((r) => r.texts[i] === l.text)).length;
    models.forEach((m, k) => {
      const exact = lines.filter((l, i) => reads[k]!.texts[i] === l.text).length;
      const cer = lines.reduce((n, l, i) => n + levenshtein(reads[k]!.texts[i]!, l.text), 0) / Math.max(1, chars);
      console.log(`| ${scale} | ${m.name} | ${lines.length} | ${exact} | ${(100 * cer).toFixed(2)} % | ${any} | ${reads[k]!.ms.toFixed(1)} |`);
    });
    console.log(`| ${scale} | (images without a usable crop: ${left} of ${truths.length}) | | | | | |`);
  }
} finally {
  rmSync(debug, { recursive: true, force: true });
  await engine.close();
  await Promise.all(models.map((m) => m.rec.release()));
}
