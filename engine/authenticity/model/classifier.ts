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
  if (settings.model.file.endsWith('.json')) return jsonTreesClassifier(settings, bytes, sha256);
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

interface JsonTree {
  feature: number[];
  threshold: number[];
  left: number[];
  right: number[];
  value: number[];
}
interface JsonTreesModel {
  format: 'sklearn-gbt-softmax-v1';
  learning_rate: number;
  init: number[];
  n_features: number;
  stages: JsonTree[][];
}

/**
 * Model v3 (settings v5): scikit-learn gradient-boosted trees written as JSON by
 * training/train_v3.py and evaluated here (raw = init + lr · Σ trees, softmax), so no native
 * runtime is involved. train_v3.py checks that this evaluation reproduces scikit-learn's
 * probabilities, and a unit test checks the same for this code on the stored check rows.
 */
export function evaluateJsonTrees(model: JsonTreesModel, features: ArrayLike<number>): number[] {
  const raw = [...model.init];
  for (const stage of model.stages) {
    for (let k = 0; k < stage.length; k++) {
      const t = stage[k]!;
      let n = 0;
      // float32 comparisons, as scikit-learn does for its float32-cast inputs
      while (t.left[n] !== -1) n = Math.fround(features[t.feature[n]!]!) <= t.threshold[n]! ? t.left[n]! : t.right[n]!;
      raw[k] = raw[k]! + model.learning_rate * t.value[n]!;
    }
  }
  const max = Math.max(...raw);
  const e = raw.map((v) => Math.exp(v - max));
  const sum = e.reduce((a, v) => a + v, 0);
  return e.map((v) => v / sum);
}

function jsonTreesClassifier(settings: AuthenticitySettings, bytes: Buffer, sha256: string): Classifier {
  let model: JsonTreesModel;
  try {
    model = JSON.parse(bytes.toString('utf8')) as JsonTreesModel;
  } catch {
    throw new AuthenticityError('model_unavailable', `model ${settings.model.file} is not valid JSON`);
  }
  if (model.format !== 'sklearn-gbt-softmax-v1') throw new AuthenticityError('model_unavailable', `model ${settings.model.file} has an unknown format`);
  const width = FEATURE_SETS[settings.featureSet ?? 'v1'];
  if (model.n_features !== width) throw new AuthenticityError('model_unavailable', `model ${settings.model.file} reads ${model.n_features} features, settings give ${width}`);
  return {
    name: settings.model.name,
    sha256,
    async predict(features) {
      if (features.length < width) throw new Error(`expected at least ${width} features, got ${features.length}`);
      const probs = evaluateJsonTrees(model, features.subarray(0, width));
      const out = {} as Record<SampleLabel, number>;
      SAMPLE_LABELS.forEach((label, i) => (out[label] = probs[i] ?? 0));
      return { probabilities: out };
    },
    async close() {},
  };
}
