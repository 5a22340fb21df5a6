import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root, independent of the current working directory (this file is one folder below it). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
