import { mkdir, readFile, readdir, rm, writeFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { decrypt, encrypt, randomToken } from './crypto.js';

/**
 * Uploaded captures are PII: encrypted at rest (AES-256-GCM, key from config), addressed by an
 * opaque key, grouped by Case so erasure removes a directory. An S3-compatible implementation
 * would implement the same interface.
 */
export interface BlobStore {
  put(caseId: string, data: Buffer): Promise<string>;
  get(key: string): Promise<Buffer>;
  delete(key: string): Promise<void>;
  deleteCase(caseId: string): Promise<number>;
  countCase(caseId: string): Promise<number>;
}

const SAFE = /^[A-Za-z0-9_-]+$/;

export function createLocalBlobStore(root: string, key: Buffer): BlobStore {
  const caseDir = (caseId: string): string => {
    if (!SAFE.test(caseId)) throw new Error('invalid case id for blob path');
    return path.join(root, caseId);
  };
  return {
    async put(caseId, data) {
      const dir = caseDir(caseId);
      const name = randomToken(18);
      const file = path.join(dir, `${name}.bin`);
      const sealed = encrypt(key, data);
      // write-then-rename so a crash never leaves a half-written blob under a live key. The Case's
      // directory is made on its first blob only (a failed write says it is missing), not checked
      // again on each of its ~55 uploads.
      try {
        await writeFile(`${file}.tmp`, sealed);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        await mkdir(dir, { recursive: true });
        await writeFile(`${file}.tmp`, sealed);
      }
      await rename(`${file}.tmp`, file);
      return `${caseId}/${name}`;
    },
    async get(blobKey) {
      const [caseId, name] = blobKey.split('/');
      if (!caseId || !name || !SAFE.test(name)) throw new Error('invalid blob key');
      return decrypt(key, await readFile(path.join(caseDir(caseId), `${name}.bin`)));
    },
    async delete(blobKey) {
      const [caseId, name] = blobKey.split('/');
      if (!caseId || !name || !SAFE.test(name)) throw new Error('invalid blob key');
      await rm(path.join(caseDir(caseId), `${name}.bin`), { force: true });
    },
    async deleteCase(caseId) {
      const dir = caseDir(caseId);
      const n = await this.countCase(caseId);
      await rm(dir, { recursive: true, force: true });
      return n;
    },
    async countCase(caseId) {
      try {
        return (await readdir(caseDir(caseId))).length;
      } catch {
        return 0;
      }
    },
  };
}
