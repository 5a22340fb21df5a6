import path from 'node:path';
import { REPO_ROOT } from '../../../engine/assets.js';
import { buildCorpus, type Split } from './corpus.js';

/**
 * `tsx tools/authenticity/training/build-corpus.ts <train|test> <from> <to> [outDir]`
 * Writes JPEGs and manifest.jsonl under .data/authenticity/corpus/<split>/ (gitignored).
 */
const [split = 'train', from = '0', to = '200', out] = process.argv.slice(2);
if (split !== 'train' && split !== 'test') throw new Error('split must be train or test');
const outDir = out ?? path.join(REPO_ROOT, '.data', 'authenticity', 'corpus', split);
await buildCorpus(split as Split, Number(from), Number(to), outDir);
