import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ONNX_COMMAND_LINE_BYTES } from '../onnx-guard.js';
import { AUTHENTICITY_ERROR_CODES } from './errors.js';

/**
 * Robustness (issue 13): a few hundred mixed images through ONE engine process. Before the fix a
 * batch of ~400 paths on argv killed the CLI with SIGSEGV (status 139) and no output, because
 * onnxruntime-node overflows its stack on a command line longer than about 29 KB.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const REAL_DOCS = path.resolve(ROOT, '../shared/documents-real');

interface Line { file: string; error?: string; status?: string; score?: number }

function runCli(args: string[], stdin?: string): Promise<{ code: number | null; signal: string | null; lines: Line[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'engine/cli.ts'), ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '', err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({ code, signal, stderr: err, lines: out.trim() ? out.trim().split('\n').map((l) => JSON.parse(l) as Line) : [] }),
    );
    child.stdin.end(stdin ?? '');
  });
}

describe('authenticity CLI batch robustness', () => {
  let dir: string;
  const expected = new Map<string, 'result' | 'result_or_unreadable' | (typeof AUTHENTICITY_ERROR_CODES)[number] | 'file_not_found'>();
  const files: string[] = [];

  beforeAll(async () => {
    // Long directory name: 320 paths make a command line well past the 29 KB crash point.
    dir = await mkdtemp(path.join(os.tmpdir(), 'authenticity-batch-a-rather-long-directory-name-so-paths-add-up-'));
    // JPEG by content (two files there are BMPs named .jpg; the engine refuses those, see below).
    const real: string[] = [];
    for (const f of (await readdir(REAL_DOCS)).sort()) {
      const head = (await readFile(path.join(REAL_DOCS, f))).subarray(0, 3);
      if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) real.push(f);
    }
    const add = (name: string, kind: Parameters<typeof expected.set>[1]) => {
      const p = path.join(dir, name);
      files.push(p);
      expected.set(p, kind);
      return p;
    };
    const tiny = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#8a7' } }).jpeg({ quality: 90 }).toBuffer();
    for (let i = 0; i < 320; i++) {
      const src = real[i % real.length]!;
      const bytes = await readFile(path.join(REAL_DOCS, src));
      switch (i % 8) {
        case 0: // a genuine real document image, analysed in full
          if (i < 160) await writeFile(add(`genuine-${String(i).padStart(4, '0')}-${src}`, 'result'), bytes);
          else await writeFile(add(`tiny-b-${String(i).padStart(4, '0')}.jpg`, 'image_too_small'), tiny);
          break;
        case 1:
        case 2:
          await writeFile(add(`tiny-${String(i).padStart(4, '0')}.jpg`, 'image_too_small'), tiny);
          break;
        case 3: // the first 600 bytes: headers only, no image data
          await writeFile(add(`truncated-${String(i).padStart(4, '0')}.jpg`, 'image_unreadable'), bytes.subarray(0, 600));
          break;
        case 4: // cut in the middle of the entropy-coded data: decoders may fill the rest
          await writeFile(add(`half-${String(i).padStart(4, '0')}.jpg`, 'result_or_unreadable'), bytes.subarray(0, Math.floor(bytes.length / 2)));
          break;
        case 5:
          await writeFile(add(`text-${String(i).padStart(4, '0')}.jpg`, 'unsupported_image_format'), `not an image ${i}\n`);
          break;
        case 6:
          await writeFile(add(`empty-${String(i).padStart(4, '0')}.jpg`, 'unsupported_image_format'), Buffer.alloc(0));
          break;
        default:
          expected.set(path.join(dir, `missing-${i}.jpg`), 'file_not_found');
          files.push(path.join(dir, `missing-${i}.jpg`));
      }
    }
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function check(lines: Line[]) {
    expect(lines.map((l) => l.file)).toEqual(files);
    for (const line of lines) {
      const want = expected.get(line.file)!;
      if (want === 'result') {
        expect(line.error, line.file).toBeUndefined();
        expect(['passed', 'review', 'failed']).toContain(line.status);
        expect(line.score).toBeGreaterThanOrEqual(0);
      } else if (want === 'result_or_unreadable') {
        if (line.error) expect(line.error, line.file).toBe('image_unreadable');
        else expect(['passed', 'review', 'failed']).toContain(line.status);
      } else {
        expect(line.error, line.file).toBe(want);
      }
    }
  }

  it('runs 320 mixed images given on argv (> 29 KB) through one process with an ONNX model (settings v4): one line each, no crash', async () => {
    expect(files.join(' ').length).toBeGreaterThan(29_000);
    const res = await runCli(['authenticity', '--settings', '4', ...files]);
    expect(res.signal).toBeNull();
    expect(res.code).toBe(1); // some files failed, cleanly
    check(res.lines);
    expect(res.lines.filter((l) => !l.error).length).toBeGreaterThanOrEqual(20);
  }, 600_000);

  it('reads the same batch from --files-from - (stdin), with the current settings', async () => {
    const subset = files.slice(0, 48);
    const res = await runCli(['authenticity', '--files-from', '-'], subset.join('\n') + '\n');
    expect(res.signal).toBeNull();
    expect(res.lines.map((l) => l.file)).toEqual(subset);
  }, 300_000);

  it('the ONNX model loaders (authenticity v1–v4, faces) refuse a command line over the limit with a clear error instead of crashing', async () => {
    const padding = Array.from({ length: 700 }, (_, i) => `/padding/argument/that/makes/the/command/line/long/${i}.jpg`);
    expect(padding.join(' ').length).toBeGreaterThan(MAX_ONNX_COMMAND_LINE_BYTES * 1.5);
    // Settings v4 run an ONNX model (v5's JSON trees need no native runtime).
    const script = `import { AUTHENTICITY_SETTINGS_V4, createAuthenticityEngine } from './engine/authenticity/index.js';
import { loadFaceModels } from './engine/faces/models-bundle.js';
import { DEFAULT_FACE_SETTINGS } from './engine/faces/settings.js';
import { modelsDir } from './engine/assets.js';
const out = {};
try { await createAuthenticityEngine(AUTHENTICITY_SETTINGS_V4); out.authenticity = { loaded: true }; }
catch (e) { out.authenticity = { code: e.code, message: e.message }; }
try { await loadFaceModels(modelsDir(), DEFAULT_FACE_SETTINGS); out.faces = { loaded: true }; }
catch (e) { out.faces = { name: e.name, message: e.message }; }
console.log(JSON.stringify(out));`;
    const res = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, ...padding], { cwd: ROOT });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.on('close', (code) => resolve({ code, out }));
    });
    expect(res.code).toBe(0);
    const parsed = JSON.parse(res.out.trim()) as { authenticity: { code: string; message: string }; faces: { name: string; message: string } };
    expect(parsed.authenticity.code).toBe('model_unavailable');
    expect(parsed.authenticity.message).toMatch(/command line/);
    expect(parsed.faces.name).toBe('FaceModelUnavailableError');
    expect(parsed.faces.message).toMatch(/command line/);
  }, 120_000);
});
