import path from 'node:path';
import { REPO_ROOT } from '../../../engine/assets.js';
import { buildCorpus, corpusDirName, type Split } from './corpus.js';

/**
 * `tsx tools/authenticity/training/build-corpus.ts <train|test> <from> <to> [outDir] [--v3]`
 * Writes JPEGs and manifest.jsonl under .data/authenticity/corpus/<split>/ (gitignored); with
 * `--v3` (recipe v3: the simulated camera writes real cameras' headers) under corpus/<split>-v3/.
 */
const v3 = process.argv.includes('--v3');
const [split = 'train', from = '0', to = '200', out] = process.argv.slice(2).filter((a) => a !== '--v3');
if (split !== 'train' && split !== 'test') throw new Error('split must be train or test');
const tables = v3 ? 'real' : 'recipe';
const outDir = out ?? path.join(REPO_ROOT, '.data', 'authenticity', 'corpus', corpusDirName(split, tables));
await buildCorpus(split, Number(from), Number(to), outDir, undefined, tables);
