import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The hosted page's static files: a fixed list, so a request can never name any other file. */
const ASSETS: Readonly<Record<string, string>> = { 'capture.js': 'text/javascript', 'guidance.js': 'text/javascript', 'capture.css': 'text/css' };
const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The asset's bytes and content type, or null for a name that is not one of the hosted assets. */
export async function readHostedAsset(file: string): Promise<{ type: string; body: Buffer } | null> {
  const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
  if (!type) return null;
  return { type, body: await readFile(path.join(HERE, file)) };
}
