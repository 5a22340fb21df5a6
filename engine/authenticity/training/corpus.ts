import { mkdirSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { generateSample, SAMPLE_LABELS, type SampleLabel } from '../attacks/index.js';
import type { DocumentImage } from '../attacks/types.js';
import type { Zone } from '../zones.js';
import { facesForSplit, renderCard } from './render-card.js';
import { createRng } from './rng.js';
import { sharedCorpusDocument } from './shared-corpus-source.js';

/**
 * The training / held-out corpus recipe. For each document i of a split: render a clean card
 * (own renderer; portrait from that split's faces), then produce `CLEAN_PER_DOC` clean camera
 * captures and one sample of every attack type from the same card. Documents, not images, are
 * the unit of the split, and the two splits use disjoint portrait photos and different seeds.
 */
export const CLEAN_PER_DOC = 2;
export const SPLIT_SEEDS = { train: 20261121, test: 77001 } as const;
export type Split = keyof typeof SPLIT_SEEDS;

export interface ManifestRow {
  file: string;
  label: SampleLabel;
  doc: number;
  split: Split;
  zones: Zone[];
  capturedAt: string;
}

const BASE_TIME = Date.UTC(2026, 9, 1, 8, 0, 0);

/**
 * Documents below this index come from this engine's own minimal card renderer (written while
 * engine/corpus did not exist yet); the rest from the shared renderer in engine/corpus.
 */
export const OWN_RENDERER_DOCS = { train: 120, test: 30 } as const;

export async function cleanDocument(split: Split, doc: number): Promise<{ card: DocumentImage; facePath: string }> {
  const rng = createRng(SPLIT_SEEDS[split]).fork(`card-${doc}`);
  if (doc >= OWN_RENDERER_DOCS[split]) {
    const shared = await sharedCorpusDocument(rng, facesForSplit(split));
    if (shared) return { card: shared, facePath: shared.facePath };
  }
  const card = await renderCard(rng, facesForSplit(split));
  return { card, facePath: card.facePath };
}

export async function buildDocumentSamples(split: Split, doc: number, outDir: string): Promise<ManifestRow[]> {
  const faces = facesForSplit(split);
  const { card, facePath } = await cleanDocument(split, doc);
  const rng = createRng(SPLIT_SEEDS[split]).fork(`samples-${doc}`);
  const donors = faces.filter((f) => f !== facePath);
  const rows: ManifestRow[] = [];
  const jobs: { label: SampleLabel; k: number }[] = [];
  for (let k = 0; k < CLEAN_PER_DOC; k++) jobs.push({ label: 'clean', k });
  for (const label of SAMPLE_LABELS) if (label !== 'clean') jobs.push({ label, k: 0 });
  for (const { label, k } of jobs) {
    const r = rng.fork(`${label}-${k}`);
    const capturedAt = new Date(BASE_TIME + Math.floor(r.next() * 30 * 86_400_000));
    const sample = await generateSample(card, label, r, { capturedAt, donorFacePath: r.pick(donors) });
    const file = `${split}-${String(doc).padStart(4, '0')}-${label}-${k}.jpg`;
    writeFileSync(path.join(outDir, file), sample.bytes);
    rows.push({ file, label, doc, split, zones: sample.zones, capturedAt: capturedAt.toISOString() });
  }
  return rows;
}

/** Generates documents [from, to) of a split into `outDir`, appending to its manifest; resumable. */
export async function buildCorpus(split: Split, from: number, to: number, outDir: string, log = (s: string) => process.stderr.write(s)): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const manifest = path.join(outDir, 'manifest.jsonl');
  const done = new Set<number>();
  if (existsSync(manifest)) {
    for (const line of readFileSync(manifest, 'utf8').split('\n')) if (line.trim()) done.add((JSON.parse(line) as ManifestRow).doc);
  }
  for (let doc = from; doc < to; doc++) {
    if (done.has(doc)) continue;
    const t = Date.now();
    const rows = await buildDocumentSamples(split, doc, outDir);
    writeFileSync(manifest, rows.map((r) => JSON.stringify(r)).join('\n') + '\n', { flag: 'a' });
    log(`${split} doc ${doc} (${rows.length} files) ${Date.now() - t} ms\n`);
  }
}
