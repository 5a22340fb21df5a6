/**
 * `npm run corpus [-- --out .data/corpus --per-template 6 --seed 1]`: renders the synthetic document
 * corpus (tools/corpus) with ground truth beside each image. Same seed, same files.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from '../platform/paths.js';
import {
  ALL_TEMPLATES, COMBINED_DEGRADATIONS, DEGRADATION_KINDS, FORGERY_KINDS, availablePortraits, degrade, degradationFor, forgeDocument, photograph,
  renderDocument, subSeed, type Degradation, type DocumentTruth, type RenderedDocument, type Severity,
} from '../tools/corpus/index.js';

export interface CorpusEntry { name: string; front: string; back?: string; truth: string; variant: string; template: string }

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}

async function save(dir: string, name: string, doc: RenderedDocument, seed: number, variant: string, degradations: Degradation[] = []): Promise<CorpusEntry> {
  const truth: DocumentTruth = structuredClone(doc.truth);
  let front = await photograph(doc.image, subSeed(seed, 'front'));
  let back = doc.back ? await photograph(doc.back, subSeed(seed, 'back')) : undefined;
  for (const d of degradations) {
    front = await degrade(front, d);
    if (back) back = await degrade(back, d);
  }
  if (degradations.length) truth.degradations = degradations;
  truth.quad = front.quad;
  await writeFile(path.join(dir, `${name}.png`), front.image);
  if (back) await writeFile(path.join(dir, `${name}-back.png`), back.image);
  await writeFile(path.join(dir, `${name}.json`), JSON.stringify({ ...truth, variant, back_quad: back?.quad }, null, 2));
  return { name, front: `${name}.png`, back: back ? `${name}-back.png` : undefined, truth: `${name}.json`, variant, template: truth.template };
}


export async function buildCorpus(out: string, perTemplate: number, baseSeed: number): Promise<CorpusEntry[]> {
  await mkdir(out, { recursive: true });
  const portraits = availablePortraits();
  const entries: CorpusEntry[] = [];
  for (const t of ALL_TEMPLATES) {
    for (let i = 0; i < perTemplate; i++) {
      const seed = subSeed(baseSeed, `${t.id}-${i}`);
      const portrait = portraits.length ? portraits[seed % portraits.length] : undefined;
      const doc = await renderDocument({ template: t, seed, portrait });
      entries.push(await save(out, `${t.id}-${i}-clean`, doc, seed, 'clean'));
      // Each identity gets one moderate and one heavy degradation, cycling through the kinds.
      const kindM = DEGRADATION_KINDS[i % DEGRADATION_KINDS.length]!;
      const kindH = DEGRADATION_KINDS[(i + 3) % DEGRADATION_KINDS.length]!;
      entries.push(await save(out, `${t.id}-${i}-moderate-${kindM}`, doc, seed, `moderate:${kindM}`, [degradationFor(kindM, 'moderate', subSeed(seed, kindM))]));
      entries.push(await save(out, `${t.id}-${i}-heavy-${kindH}`, doc, seed, `heavy:${kindH}`, [degradationFor(kindH, 'heavy', subSeed(seed, kindH))]));
      const severity: Severity = i % 2 ? 'heavy' : 'moderate';
      entries.push(await save(out, `${t.id}-${i}-combined-${severity}`, doc, seed, `combined:${severity}`, COMBINED_DEGRADATIONS.map((k) => degradationFor(k, severity, subSeed(seed, `c-${k}`)))));
      if (t.tier === 'calibrated' && i < FORGERY_KINDS.length * 2) {
        const kind = FORGERY_KINDS[i % FORGERY_KINDS.length]!;
        const forged = await forgeDocument(kind, { template: t, seed, portrait });
        entries.push(await save(out, `${t.id}-${i}-forged-${kind}`, forged, seed, `forged:${kind}`));
      }
    }
  }
  await writeFile(path.join(out, 'index.json'), JSON.stringify({ seed: baseSeed, per_template: perTemplate, entries }, null, 2));
  return entries;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('scripts/corpus.ts')) {
  const out = path.resolve(REPO_ROOT, arg('out', '.data/corpus'));
  const t0 = Date.now();
  const entries = await buildCorpus(out, Number(arg('per-template', '10')), Number(arg('seed', '1')));
  process.stdout.write(`${entries.length} documents in ${out} (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
}
