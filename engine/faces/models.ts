import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import type { TModelStamp } from '../../domain/checks.js';
import { onnxCommandLineProblem } from '../onnx-guard.js';
import type { TModelPin } from './settings.js';

/** Thrown when a model file is missing or differs from its pin; callers turn it into `unavailable`. */
export class FaceModelUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FaceModelUnavailableError';
  }
}

export interface LoadedModel {
  session: ort.InferenceSession;
  stamp: TModelStamp;
}

/**
 * Reads a model, checks its sha256 against the pin before ONNX Runtime sees the bytes (so a
 * swapped file can never produce a result stamped with the pinned hash), and opens one session.
 */
export async function loadPinnedModel(dir: string, pin: TModelPin, threads: number): Promise<LoadedModel> {
  const file = path.join(dir, pin.file);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    throw new FaceModelUnavailableError(`face model ${pin.file} not found in ${dir} (set MODELS_DIR or run npm run fetch-assets)`);
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 !== pin.sha256) {
    throw new FaceModelUnavailableError(`face model ${pin.file} has sha256 ${sha256}, expected ${pin.sha256}`);
  }
  // A refusal here is a clean error; starting ONNX Runtime would be a SIGSEGV (onnx-guard.ts).
  const problem = onnxCommandLineProblem();
  if (problem) throw new FaceModelUnavailableError(`face model ${pin.file}: ${problem}`);
  const session = await ort.InferenceSession.create(bytes, {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  return { session, stamp: { name: pin.file, sha256 } };
}

/** Runs a single-input model and returns its outputs by name. */
export async function runModel(model: LoadedModel, data: Float32Array, dims: number[]): Promise<Record<string, Float32Array>> {
  const inputName = model.session.inputNames[0]!;
  const out = await model.session.run({ [inputName]: new ort.Tensor('float32', data, dims) });
  const result: Record<string, Float32Array> = {};
  for (const [name, tensor] of Object.entries(out)) result[name] = tensor.data as Float32Array;
  return result;
}
