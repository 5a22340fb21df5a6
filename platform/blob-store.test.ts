import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalBlobStore } from './blob-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('local blob store', () => {
  it("makes a Case's directory on its first blob, again after the Case was erased, and leaves no temporary file", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'ivs-blobs-'));
    dirs.push(root);
    const store = createLocalBlobStore(root, randomBytes(32));
    const a = Buffer.from('first capture');
    const k1 = await store.put('ver_1', a);
    const k2 = await store.put('ver_1', Buffer.from('second'));
    expect(await store.get(k1)).toEqual(a);
    expect(await store.countCase('ver_1')).toBe(2);
    expect(await store.deleteCase('ver_1')).toBe(2);
    expect(existsSync(path.join(root, 'ver_1'))).toBe(false);
    await expect(store.get(k2)).rejects.toThrow();
    // The directory is gone (erasure); the next blob of that id makes it again.
    const k3 = await store.put('ver_1', Buffer.from('third'));
    expect((await store.get(k3)).toString()).toBe('third');
    expect(readdirSync(path.join(root, 'ver_1')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('reports write errors other than a missing directory', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'ivs-blobs-'));
    dirs.push(root);
    const store = createLocalBlobStore(path.join(root, 'missing', '\0bad'), randomBytes(32));
    await expect(store.put('ver_1', Buffer.from('x'))).rejects.toThrow();
  });
});
