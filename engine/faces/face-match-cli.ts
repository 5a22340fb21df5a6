import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { compareImages } from './face-match.js';
import { loadFaceModels } from './models-bundle.js';
import { modelsDir } from '../assets.js';
import { DEFAULT_FACE_SETTINGS } from './settings.js';

const USAGE = 'usage: npm run engine -- face-match <a> <b> | face-match --pairs <pairs.jsonl>';
const ZPair = z.object({ a: z.string().min(1), b: z.string().min(1) });

/**
 * `face-match <a> <b>` or `face-match --pairs <pairs.jsonl>`: similarity of the largest face in
 * each image, one JSON line per pair. `match` uses the engine's threshold; `similarity` is null
 * (with `error`) when an image has no face.
 */
export async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { pairs: { type: 'string' } } });
  let pairs: { a: string; b: string }[];
  if (values.pairs) {
    const text = await readFile(values.pairs, 'utf8');
    pairs = text.split('\n').filter((l) => l.trim()).map((l) => ZPair.parse(JSON.parse(l)));
  } else if (positionals.length === 2) {
    pairs = [{ a: positionals[0]!, b: positionals[1]! }];
  } else {
    process.stderr.write(`${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  const settings = DEFAULT_FACE_SETTINGS;
  const models = await loadFaceModels(modelsDir(), settings);
  try {
    for (const { a, b } of pairs) {
      let line: Record<string, unknown>;
      try {
        const similarity = await compareImages(models, settings, a, b);
        line = similarity === null
          ? { a, b, similarity: null, match: false, error: 'no_face_detected' }
          : { a, b, similarity: Math.round(similarity * 1000) / 1000, match: similarity >= settings.match.threshold, threshold: settings.match.threshold };
      } catch (err) {
        line = { a, b, similarity: null, match: false, error: err instanceof Error ? err.message : String(err) };
      }
      process.stdout.write(`${JSON.stringify(line)}\n`);
    }
  } finally {
    await models.release();
  }
}
