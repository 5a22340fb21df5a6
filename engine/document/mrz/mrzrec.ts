import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { onnxCommandLineProblem } from '../../onnx-guard.js';
import { DocumentEngineError } from '../ocr/workers.js';

/**
 * 3.0: the project's own MRZ line recogniser. A small convolutional CTC reader over the MRZ's 37
 * characters, trained by `tools/mrz-rec/train.py` on OCR-B lines rendered and degraded by
 * `tools/mrz-rec/gen.py` (characters down to 5 px high, blur, JPEG, tinted guilloche, glare,
 * keystone). No real image is a training input. It exists because the two general readers fail on
 * the same thing: small, soft MRZ print, where tesseract's MRZ model and PP-OCRv4 both turn `<`
 * runs into `K`, `C`, `S` or `4` (the real misses of bench:documents are reading misses, not
 * localisation ones). It reads one text line as `splitTextLines` cuts it from a band. The model
 * file (in `model/`) and its sha256 are named by the settings (`scan.mrzRec`, `MRZ_REC_1`).
 */
export const MRZ_REC_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'model');

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ<';
/** The model's input height (train.py `HEIGHT`). */
const HEIGHT = 24;

export interface MrzLineRead { text: string; /** The least certain emitted character's probability (0..1). */ confidence: number }

export class MrzLineRecognizer {
  private constructor(private readonly session: ort.InferenceSession) {}

  /** The model named by the settings (`scan.mrzRec`), refused unless its bytes hash to the pinned sha256. */
  static async create(pin: { model: string; sha256: string }, dir = MRZ_REC_DIR): Promise<MrzLineRecognizer> {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path.join(dir, path.basename(pin.model)));
    } catch {
      throw new DocumentEngineError('ocr_model_missing', `${pin.model} not found`);
    }
    // The bytes that are hashed are the bytes ONNX Runtime loads.
    if (createHash('sha256').update(bytes).digest('hex') !== pin.sha256) throw new DocumentEngineError('ocr_model_mismatch', `${pin.model} sha256 does not match the pinned value`);
    const problem = onnxCommandLineProblem();
    if (problem) throw new DocumentEngineError('ocr_model_unavailable', `${pin.model}: ${problem}`);
    return new MrzLineRecognizer(await ort.InferenceSession.create(bytes, { intraOpNumThreads: 1, interOpNumThreads: 1 }));
  }

  async release(): Promise<void> {
    await this.session.release();
  }

  /** One text line's crop (any size) to its MRZ characters: 24 px high, contrast stretched, greedy CTC. */
  async read(png: Buffer): Promise<MrzLineRead> {
    const meta = await sharp(png).metadata();
    if (!meta.width || !meta.height) return { text: '', confidence: 0 };
    const w = Math.max(16, Math.min(3000, Math.round((meta.width / meta.height) * HEIGHT)));
    const { data } = await sharp(png).greyscale().resize(w, HEIGHT, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
    const width = Math.ceil(w / 4) * 4;
    const input = new Float32Array(HEIGHT * width);
    const { values: v, median: pad } = stretch(data);
    for (let y = 0; y < HEIGHT; y++) for (let x = 0; x < width; x++) input[y * width + x] = x < w ? v[y * w + x]! : pad;
    const out = await this.session.run({ image: new ort.Tensor('float32', input, [1, 1, HEIGHT, width]) });
    const t = out.logits!;
    const [, steps, classes] = t.dims as [number, number, number];
    const p = t.data as Float32Array;
    let text = '', prev = -1, confidence = 1;
    for (let s = 0; s < steps; s++) {
      let arg = 0, max = -Infinity, sum = 0;
      for (let c = 0; c < classes; c++) if (p[s * classes + c]! > max) { max = p[s * classes + c]!; arg = c; }
      for (let c = 0; c < classes; c++) sum += Math.exp(p[s * classes + c]! - max);
      if (arg !== 0 && arg !== prev) { text += ALPHABET[arg - 1]; confidence = Math.min(confidence, 1 / sum); }
      prev = arg;
    }
    return { text, confidence: text ? confidence : 0 };
  }
}

/**
 * The 2nd and 98th percentiles to -1 and 1, as train.py's `stretch` (numpy's linear interpolation),
 * and the stretched line's median, which pads it to the model's width (train.py pads with it too).
 */
function stretch(data: Buffer): { values: Float32Array; median: number } {
  const sorted = Uint8Array.from(data).sort();
  const at = (q: number) => {
    const i = q * (sorted.length - 1), lo = Math.floor(i), hi = Math.min(sorted.length - 1, lo + 1);
    return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (i - lo);
  };
  const lo = at(0.02), hi = at(0.98), span = Math.max(hi - lo, 8);
  // Monotone, so the median of the stretched values is the stretched median.
  const map = (x: number) => Math.min(1, Math.max(0, (x - lo) / span)) * 2 - 1;
  const values = new Float32Array(data.length);
  for (let i = 0; i < data.length; i++) values[i] = map(data[i]!);
  return { values, median: map(sorted[sorted.length >> 1]!) };
}
