import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { REPO_ROOT, sharedDir } from '../engine/assets.js';
import { isHeldOut, type RealTruth } from '../bench/documents-real.js';
import { createDocumentEngine, type DocumentEngine, type DocumentEngineSettings, type MrzScan } from '../engine/document/index.js';
import type { TDocumentType } from '../domain/documents.js';
import sharp from 'sharp';
import { availablePortraits, photograph, renderDocument } from '../tools/corpus/index.js';

/**
 * Shared by the document engine's version tests (2.0, 2.1, 2.2): the real specimen captures in
 * `../shared/documents-real` (tests read TUNING images only; held-out ones stay out of every test),
 * their ground-truth MRZ, and one engine per test file started and closed with the file.
 */
export const REAL_DOCUMENTS = path.join(sharedDir(), 'documents-real');

export function realMrzTruth(file: string): string[] {
  const rows = readFileSync(path.join(REAL_DOCUMENTS, 'ground_truth.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { file: string; mrz_lines: string[] });
  return rows.find((r) => r.file === file)!.mrz_lines;
}

/**
 * The public tuning set (`npm run fetch-documents-real -- --set public-tuning`), absent in CI, which
 * does not fetch it: tests on it skip when its truth is not there.
 */
export const PUBLIC_TUNING = path.join(REPO_ROOT, '.data', 'documents-public-tuning');

export function publicTuningTruth(file: string): RealTruth | undefined {
  const p = path.join(PUBLIC_TUNING, 'ground_truth.jsonl');
  if (!existsSync(p) || !existsSync(path.join(PUBLIC_TUNING, file))) return undefined;
  return readFileSync(p, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RealTruth).find((t) => t.file === file);
}

/**
 * A public tuning image scanned by the version before and the version under test, once its truth is
 * checked to be on the tuning side of the hash split (held-out images stay out of every test).
 */
export async function scanTuningPair(file: string, truth: RealTruth, before: () => DocumentEngine, after: () => DocumentEngine): Promise<[MrzScan, MrzScan]> {
  expect(isHeldOut(truth)).toBe(false);
  const bytes = readFileSync(path.join(PUBLIC_TUNING, file));
  return [await before().scanMrz(bytes), await after().scanMrz(bytes)];
}

/** Registers the file's hooks; the engine is there from `beforeAll` on. */
export function useDocumentEngine(settings: DocumentEngineSettings): () => DocumentEngine {
  let engine: DocumentEngine | undefined;
  beforeAll(async () => {
    engine = await createDocumentEngine(settings);
  });
  afterAll(async () => {
    await engine?.close();
  });
  return () => engine!;
}

/**
 * The synthetic corpus check every version keeps ("figures must not fall"): a rendered document,
 * photographed, passes document_ocr and template_match with its MRZ read back exactly. Returns the
 * document and the result for a version's own further expectations.
 */
export async function expectSyntheticPasses(engine: DocumentEngine, template: string, country: string, type: TDocumentType, now: Date) {
  const doc = await renderDocument({ template, seed: 101 });
  const front = (await photograph(doc.image, 1)).image;
  const back = doc.back ? (await photograph(doc.back, 2)).image : undefined;
  const res = await engine.analyze({ front, back, declared: { country, type }, accepted: [{ country, types: [type] }], now });
  expect(res.ocr.status, JSON.stringify(res.ocr.reasons)).toBe('passed');
  expect(res.template.status, JSON.stringify(res.template.reasons)).toBe('passed');
  expect((res.ocr.evidence as { mrz: { lines: string[] } }).mrz.lines).toEqual(doc.truth.mrz.lines);
  return { doc, res };
}

/**
 * The synthetic Mexican passport photographed on a table (`photograph`, scene 4; JPEG quality 92) that the
 * 3.20, 3.23 and 3.31 tests read: a caption band above its MRZ is what those versions change the reading of.
 */
export async function mexPassportOnTable() {
  const doc = await renderDocument({ template: 'mex-passport', seed: 4, portrait: availablePortraits()[0] });
  return { doc, img: await sharp((await photograph(doc.image, 4)).image).jpeg({ quality: 92 }).toBuffer() };
}
