import { existsSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../platform/paths.js';

export { REPO_ROOT };

/**
 * Where the pinned third-party assets (ONNX models, tessdata, test faces and clips) live.
 * In this workplace and in CI they are used in place from `../shared` beside the checkout;
 * on a user's clone `npm run fetch-assets` downloads the same files (sha256-checked) into
 * `.data/shared`. `SHARED_DIR` overrides both.
 */
export function sharedDir(): string {
  const fromEnv = process.env.SHARED_DIR;
  if (fromEnv) return path.resolve(fromEnv);
  const beside = path.resolve(REPO_ROOT, '..', 'shared');
  if (existsSync(path.join(beside, 'models'))) return beside;
  return path.join(REPO_ROOT, '.data', 'shared');
}

export function modelsDir(): string {
  return process.env.MODELS_DIR ? path.resolve(process.env.MODELS_DIR) : path.join(sharedDir(), 'models');
}

export function tessdataDir(): string {
  return process.env.TESSDATA_DIR ? path.resolve(process.env.TESSDATA_DIR) : path.join(sharedDir(), 'tessdata');
}

export function facesDir(): string {
  return path.join(sharedDir(), 'faces');
}

export function videosDir(): string {
  return path.join(sharedDir(), 'videos');
}

/** Scratch space for caches (tesseract, generated corpora); never holds PII. */
export function cacheDir(): string {
  return process.env.ENGINE_CACHE_DIR ? path.resolve(process.env.ENGINE_CACHE_DIR) : path.join(REPO_ROOT, '.data', 'cache');
}
