import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { cacheDir, sharedDir, tessdataDir } from '../../assets.js';

export class DocumentEngineError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

export interface OcrLine { text: string; confidence: number }
export interface OcrResult { text: string; confidence: number; lines: OcrLine[] }

/**
 * One long-lived tesseract worker per model (start costs 0.5–0.8 s). Jobs on a worker run one at
 * a time; a timed-out job leaves the worker busy, so the worker is replaced rather than reused.
 */
export class OcrWorker {
  private worker?: Promise<Worker>;
  private chain: Promise<unknown> = Promise.resolve();
  private lastParams = '';
  /** Ends the job now running (jobs run one at a time) when the worker is closed under it. */
  private abortJob?: (err: Error) => void;

  constructor(private readonly start: () => Promise<Worker>, readonly name: string) {}

  private get(): Promise<Worker> {
    this.worker ??= this.start();
    return this.worker;
  }

  /** `lines: false` skips the layout output, which costs a third of a small crop's time. */
  async recognize(image: Buffer, params: Record<string, string>, timeoutMs: number, opts: { lines?: boolean } = {}): Promise<OcrResult> {
    const run = this.chain.then(async () => {
      // A job the worker is closed under (an engine closed while a read still runs, as when one of
      // a Case's parallel reads failed first) ends with ocr_closed: a terminated tesseract worker
      // would throw a TypeError at the next message, or never answer one already sent. One promise
      // per job, not per worker: a long-lived promise raced by every job would keep every result.
      const aborted = new Promise<never>((_, reject) => { this.abortJob = reject; });
      aborted.catch(() => undefined);
      const current = this.get();
      let timer: NodeJS.Timeout | undefined;
      try {
        const worker = await Promise.race([current, aborted]);
        const key = JSON.stringify(params);
        if (key !== this.lastParams) {
          await Promise.race([worker.setParameters(params), aborted]);
          this.lastParams = key;
        }
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new DocumentEngineError('ocr_timeout', `${this.name} OCR exceeded ${timeoutMs} ms`)), timeoutMs);
        });
        const res = await Promise.race([worker.recognize(image, {}, { text: true, blocks: opts.lines !== false }), timeout, aborted]);
        const lines: OcrLine[] = [];
        for (const b of res.data.blocks ?? []) for (const p of b.paragraphs) for (const l of p.lines) lines.push({ text: l.text.trim(), confidence: l.confidence });
        return { text: res.data.text, confidence: res.data.confidence, lines };
      } catch (err) {
        // A timed-out job leaves its worker busy: replace it. (A worker that failed to start keeps
        // failing every job, as before; a closed one is gone already.)
        if (err instanceof DocumentEngineError && err.code === 'ocr_timeout' && this.worker === current) {
          this.worker = undefined;
          this.lastParams = '';
          void current.then((w) => w.terminate()).catch(() => undefined);
        }
        throw err;
      } finally {
        clearTimeout(timer);
        this.abortJob = undefined;
      }
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    // A worker started after this one starts with tesseract's defaults.
    this.lastParams = '';
    this.abortJob?.(new DocumentEngineError('ocr_closed', `${this.name} OCR worker closed during the read`));
    if (w) await (await w).terminate();
  }
}

export function sha256File(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** The MRZ model, refused unless its bytes match the pinned sha256 (it changes every answer). */
export function mrzWorker(expectedSha256: string): OcrWorker {
  const dir = tessdataDir();
  const file = path.join(dir, 'mrz.traineddata');
  return new OcrWorker(async () => {
    let actual: string;
    try {
      actual = sha256File(file);
    } catch {
      throw new DocumentEngineError('ocr_model_missing', `mrz.traineddata not found in ${dir}`);
    }
    if (actual !== expectedSha256) throw new DocumentEngineError('ocr_model_mismatch', 'mrz.traineddata sha256 does not match the pinned value');
    const cachePath = path.join(cacheDir(), 'tesseract');
    mkdirSync(cachePath, { recursive: true });
    const w = await createWorker('mrz', OEM.LSTM_ONLY, { langPath: dir, gzip: false, cacheMethod: 'none', cachePath });
    await w.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_BLOCK });
    return w;
  }, 'mrz');
}

/**
 * The MRZ model's read parameters a document engine version asks for (3.14 `noInvert`: no inverted
 * second pass over unsure lines). Every MRZ read passes all of them: a tesseract parameter keeps
 * its last value on the worker, and one worker serves every profile's reads.
 */
export const mrzReadParams = (o: { noInvert?: boolean }): Record<string, string> => ({ user_defined_dpi: '300', tessedit_do_invert: o.noInvert ? '0' : '1' });

/** Stock English LSTM for the visual zone; the Portuguese and Spanish captions are fixed text we do not need to read. */
export function visualWorker(): OcrWorker {
  const langPath = path.dirname(engDataPath());
  return new OcrWorker(async () => {
    const cachePath = path.join(cacheDir(), 'tesseract');
    mkdirSync(cachePath, { recursive: true });
    return createWorker('eng', OEM.LSTM_ONLY, { langPath, gzip: true, cacheMethod: 'none', cachePath });
  }, 'visual');
}

export interface ModelStamp { name: string; sha256: string }

/**
 * Where the Portuguese/Spanish traineddata lives: `TESSDATA_LANG_DIR`, `npm run fetch-assets`'s
 * `tessdata-lang/`, or Debian's tesseract-ocr-por / -spa (pinned in .ci/apt-packages.txt).
 */
export function languageDataPath(lang: 'por' | 'spa'): string | null {
  const dirs = [process.env.TESSDATA_LANG_DIR, path.join(sharedDir(), 'tessdata-lang'), '/usr/share/tesseract-ocr/5/tessdata', '/usr/share/tesseract-ocr/4.00/tessdata'].filter(Boolean) as string[];
  for (const d of dirs) if (existsSync(path.join(d, `${lang}.traineddata`))) return path.join(d, `${lang}.traineddata`);
  return null;
}

/** A worker for one document language (captions); `null` when its traineddata is not installed. */
export function languageWorker(lang: 'por' | 'spa'): OcrWorker | null {
  const file = languageDataPath(lang);
  if (!file) return null;
  return new OcrWorker(async () => {
    const cachePath = path.join(cacheDir(), 'tesseract');
    mkdirSync(cachePath, { recursive: true });
    return createWorker(lang, OEM.LSTM_ONLY, { langPath: path.dirname(file), gzip: false, cacheMethod: 'none', cachePath });
  }, lang);
}

export function engDataPath(): string {
  const require = createRequire(import.meta.url);
  const eng = require('@tesseract.js-data/eng') as { langPath: string };
  return path.join(eng.langPath.replace(/4\.0\.0$/, '4.0.0_best_int'), 'eng.traineddata.gz');
}

/** The OCR-B font the glyph reader renders its references from (Debian `fonts-ocr-b`). */
export const OCRB_FONT = '/usr/share/fonts/opentype/ocr-b/OCRB.otf';

/**
 * Checks the pinned MRZ model and stamps every file that changes an answer, so that an engine
 * profile records exactly what ran. Throws `ocr_model_missing` / `ocr_model_mismatch` at start-up
 * rather than on the first document, and `ocr_font_missing` when the profile uses the glyph reader
 * but the OCR-B font is not installed: running tesseract alone under a profile that says the glyph
 * reader is on would change answers under the same stamp, so the engine does not start and its
 * checks report `unavailable` (the registry logs this message as the reason).
 */
export function verifyModels(expectedMrzSha256: string, opts: { glyphReader: boolean; fontPath?: string }): ModelStamp[] {
  const mrzFile = path.join(tessdataDir(), 'mrz.traineddata');
  let mrz: string;
  try {
    mrz = sha256File(mrzFile);
  } catch {
    throw new DocumentEngineError('ocr_model_missing', `mrz.traineddata not found in ${tessdataDir()}`);
  }
  if (mrz !== expectedMrzSha256) throw new DocumentEngineError('ocr_model_mismatch', 'mrz.traineddata sha256 does not match the pinned value');
  const stamps: ModelStamp[] = [{ name: 'tessdata/mrz.traineddata', sha256: mrz }, { name: '@tesseract.js-data/eng/4.0.0_best_int', sha256: sha256File(engDataPath()) }];
  if (opts.glyphReader) {
    const font = opts.fontPath ?? OCRB_FONT;
    try {
      stamps.push({ name: 'fonts-ocr-b/OCRB.otf', sha256: sha256File(font) });
    } catch {
      throw new DocumentEngineError('ocr_font_missing', `the engine profile uses the OCR-B glyph reader but ${font} is missing (Debian package fonts-ocr-b)`);
    }
  }
  return stamps;
}
