import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ivs-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('upload settings', () => {
  it('takes 16 liveness frames per request by default and refuses a bound under the hosted page\'s groups of 8', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).uploads.maxFramesPerRequest).toBe(16);
    expect(loadConfig({ DATA_DIR: dataDir, UPLOAD_MAX_FRAMES_PER_REQUEST: '8' }).uploads.maxFramesPerRequest).toBe(8);
    expect(() => loadConfig({ DATA_DIR: dataDir, UPLOAD_MAX_FRAMES_PER_REQUEST: '4' })).toThrow(/UPLOAD_MAX_FRAMES_PER_REQUEST/);
    expect(() => loadConfig({ DATA_DIR: dataDir, UPLOAD_MAX_FRAMES_PER_REQUEST: '65' })).toThrow(/UPLOAD_MAX_FRAMES_PER_REQUEST/);
  });
});
