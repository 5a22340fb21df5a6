import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import { onnxCommandLineProblem } from '../../onnx-guard.js';
import { AuthenticityError } from '../errors.js';
import { FEATURE_SETS } from '../features.js';
import { SAMPLE_LABELS, type SampleLabel } from '../labels.js';
import type { AuthenticitySettings } from '../settings.js';

/**
 * The project's own tamper/recapture classifier (gradient-boosted trees over a feature set,
 * trained by tools/authenticity/training/train.py). Its bytes are pinned by sha256 in the settings; a file that does
 * not match is refused, so every result names exactly the model that produced it.
 */
export const MODEL_DIR = path.dirname(fileURLToPath(import.meta.url));

export interface ClassifierOutput {
  probabilities: Record<SampleLabel, number>;
}

export interface Classifier {
  readonly name: string;
  readonly sha256: string;
  predict(features: Float32Array): Promise<ClassifierOutput>;
  close(): Promise<void>;
}

export async function loadClassifier(settings: AuthenticitySettings): Promise<Classifier> {
  const file = path.resolve(settings.modelDir ?? MODEL_DIR, settings.model.file);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    throw new AuthenticityError('model_unavailable', `model file ${settings.model.file} not found`);
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 !== settings.model.sha256) {
    throw new AuthenticityError('model_integrity_failed', `model ${settings.model.file} sha256 ${sha256} does not match the pinned ${settings.model.sha256}`);
  }
  // A refusal here is a clean error; starting ONNX Runtime would be a SIGSEGV (onnx-guard.ts).
  const problem = onnxCommandLineProblem();
  if (problem) throw new AuthenticityError('model_unavailable', problem);
  const session = await ort.InferenceSession.create(bytes, { intraOpNumThreads: 1, interOpNumThreads: 1 });
  const width = FEATURE_SETS[settings.featureSet ?? 'v1'];
  const input = session.inputNames[0]!;
  const probOutput = session.outputNames.find((n) => /prob/i.test(n)) ?? session.outputNames[session.outputNames.length - 1]!;
  return {
    name: settings.model.name,
    sha256,
    async predict(features) {
      // Feature sets are prefixes of the full vector: an older model reads the values it was trained on.
      if (features.length < width) throw new Error(`expected at least ${width} features, got ${features.length}`);
      const result = await session.run({ [input]: new ort.Tensor('float32', features.slice(0, width), [1, width]) });
      const probs = result[probOutput]!.data as Float32Array;
      const out = {} as Record<SampleLabel, number>;
      SAMPLE_LABELS.forEach((label, i) => (out[label] = probs[i] ?? 0));
      return { probabilities: out };
    },
    async close() {
      await session.release();
    },
  };
}
