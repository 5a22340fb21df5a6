import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SAMPLE_LABELS } from '../attacks/types.js';
import { FEATURE_NAMES } from '../../../engine/authenticity/features.js';

/**
 * Writes feature-spec.json: the feature order and class order that train.py must use. A unit
 * test checks that the committed file still equals FEATURE_NAMES / SAMPLE_LABELS.
 */
export const FEATURE_SPEC = { features: [...FEATURE_NAMES], classes: [...SAMPLE_LABELS] };
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'feature-spec.json'), JSON.stringify(FEATURE_SPEC, null, 2) + '\n');
}
