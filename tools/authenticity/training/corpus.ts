import { mkdirSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { CameraTables } from '../attacks/camera.js';
import { generateSample, SAMPLE_LABELS, type CaptureStyle, type ResaveEdits, type SampleLabel } from '../attacks/index.js';
import type { DocumentImage } from '../attacks/types.js';
import type { Zone } from '../../../engine/authenticity/zones.js';
import { facesForSplit, renderCard } from './render-card.js';
import { createRng } from './rng.js';
import { sharedCorpusDocument } from './shared-corpus-source.js';

/**
 * The training / held-out corpus recipe. For each document i of a split: render a clean card
 * (own renderer; portrait from that split's faces), then produce `CLEAN_PER_DOC` clean camera
 * captures and one sample of every attack type from the same card; then (recipe v2) one flat,
 * evenly lit clean capture and the three editing attacks made on such a capture. Documents, not
 * images, are the unit of the split, and the two splits use disjoint portrait photos and
 * different seeds. Each file has its own random stream (forked by label and index), so adding
 * files to the recipe leaves every existing file byte-identical.
 */
export const CLEAN_PER_DOC = 2;
const FLAT_CAPTURE_JOBS: { label: SampleLabel; k: number }[] = [
  { label: 'clean', k: 2 },
  { label: 'splice_portrait', k: 1 },
  { label: 'edit_text', k: 1 },
  { label: 'editor_resave', k: 1 },
];
export const SPLIT_SEEDS = { train: 20261121, test: 77001 } as const;
export type Split = keyof typeof SPLIT_SEEDS;

export interface ManifestRow {
  file: string;
  label: SampleLabel;
  doc: number;
  split: Split;
  zones: Zone[];
  capturedAt: string;
  capture?: CaptureStyle;
  /** editor_resave only (corpora written since settings v3): crop, tone change, both qualities. */
  edits?: ResaveEdits;
  /** Corpus recipe v3: the simulated camera wrote real cameras' headers (`camera-tables.json`). */
  cameraTables?: CameraTables;
}

const BASE_TIME = Date.UTC(2026, 9, 1, 8, 0, 0);

/**
 * Documents below this index come from this engine's own minimal card renderer (written while
 * tools/corpus did not exist yet); the rest from the shared renderer in tools/corpus.
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

function sampleFile(split: Split, doc: number, label: SampleLabel, k: number): string {
  return `${split}-${String(doc).padStart(4, '0')}-${label}-${k}.jpg`;
}

/** Writes the document's samples that are not in `skip` (file names) and returns their rows. */
export async function buildDocumentSamples(
  split: Split,
  doc: number,
  outDir: string,
  skip: ReadonlySet<string> = new Set(),
  cameraTables: CameraTables = 'recipe',
): Promise<ManifestRow[]> {
  const faces = facesForSplit(split);
  const { card, facePath } = await cleanDocument(split, doc);
  const rng = createRng(SPLIT_SEEDS[split]).fork(`samples-${doc}`);
  const donors = faces.filter((f) => f !== facePath);
  const rows: ManifestRow[] = [];
  const jobs: { label: SampleLabel; k: number; capture: CaptureStyle }[] = [];
  for (let k = 0; k < CLEAN_PER_DOC; k++) jobs.push({ label: 'clean', k, capture: 'camera' });
  for (const label of SAMPLE_LABELS) if (label !== 'clean') jobs.push({ label, k: 0, capture: 'camera' });
  for (const j of FLAT_CAPTURE_JOBS) jobs.push({ ...j, capture: 'flat' });
  for (const { label, k, capture } of jobs) {
    const file = sampleFile(split, doc, label, k);
    if (skip.has(file)) continue;
    const r = rng.fork(`${label}-${k}`);
    const capturedAt = new Date(BASE_TIME + Math.floor(r.next() * 30 * 86_400_000));
    const sample = await generateSample(card, label, r, { capturedAt, donorFacePath: r.pick(donors), capture, cameraTables });
    writeFileSync(path.join(outDir, file), sample.bytes);
    rows.push({ file, label, doc, split, zones: sample.zones, capturedAt: capturedAt.toISOString(), capture, ...(sample.edits ? { edits: sample.edits } : {}), ...(cameraTables === 'recipe' ? {} : { cameraTables }) });
  }
  return rows;
}

/** Files per document in the current recipe. */
export const FILES_PER_DOC = CLEAN_PER_DOC + SAMPLE_LABELS.length - 1 + FLAT_CAPTURE_JOBS.length;

/**
 * Corpus recipe v3 (issue 13): the simulated camera writes real cameras' headers. Corpora of
 * recipe v2 (`recipe` tables; models v1–v4 were trained on them) live in `corpus/<split>`, v3 in
 * `corpus/<split>-v3`.
 */
export function corpusDirName(split: Split, cameraTables: CameraTables): string {
  return cameraTables === 'recipe' ? split : `${split}-v3`;
}

/** Generates documents [from, to) of a split into `outDir`, appending to its manifest; resumable. */
export async function buildCorpus(
  split: Split,
  from: number,
  to: number,
  outDir: string,
  log = (s: string) => process.stderr.write(s),
  cameraTables: CameraTables = 'recipe',
): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const manifest = path.join(outDir, 'manifest.jsonl');
  const files = new Set<string>();
  const perDoc = new Map<number, number>();
  if (existsSync(manifest)) {
    for (const line of readFileSync(manifest, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const row = JSON.parse(line) as ManifestRow;
      files.add(row.file);
      perDoc.set(row.doc, (perDoc.get(row.doc) ?? 0) + 1);
    }
  }
  for (let doc = from; doc < to; doc++) {
    // Resumable per file: a corpus made by an earlier recipe only gets the files it lacks.
    if ((perDoc.get(doc) ?? 0) >= FILES_PER_DOC) continue;
    const t = Date.now();
    const rows = await buildDocumentSamples(split, doc, outDir, files, cameraTables);
    writeFileSync(manifest, rows.map((r) => JSON.stringify(r)).join('\n') + '\n', { flag: 'a' });
    log(`${split} doc ${doc} (${rows.length} files) ${Date.now() - t} ms\n`);
  }
}
