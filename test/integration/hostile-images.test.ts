import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forkService, stopChild } from '../../scripts/stack.js';
import { freePort } from '../../platform/temporal-server.js';
import { documentImageForTests, genuinePassportForTests } from '../fixtures.js';
import { sql, stack, waitFor } from '../helpers.js';
import { exifBomb, htmlFirst, jpegClaiming, manyFrames, pngBomb, polyglot, tiff, truncatedJpeg } from '../hostile/images.js';

/**
 * Hostile images through the real capture API and a worker of this file's own (own task queue, so
 * its peak memory is these Cases' alone): each ends in a clean 4xx problem or a terminal Case,
 * never a crash, with the worker's peak RSS bounded.
 */
let worker: ChildProcess;
let api: ChildProcess;
let base: string;
let key: string;

const peakRssMb = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function call(method: string, path: string, body?: unknown, k?: string) {
  const r = await fetch(`${base}${path}`, { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(k ? { 'x-api-key': k } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: r.status, headers: r.headers, body: (await r.json().catch(() => null)) as any };
}

async function newCase(): Promise<{ id: string; token: string }> {
  const v = (await call('POST', '/v1/verifications', { type: 'kyc', accepted_documents: [{ country: 'MOZ', types: ['national_id', 'passport'] }] }, key)).body;
  return { id: v.id, token: new URL(v.onboarding_url).pathname.split('/').pop()! };
}

async function upload(token: string, kind: string, bytes: Buffer, name = 'capture.jpg') {
  const form = new FormData();
  form.append('kind', kind);
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const r = await fetch(`${base}/o/${token}/uploads`, { method: 'POST', body: form });
  return { status: r.status, type: r.headers.get('content-type') ?? '', body: (await r.json()) as any };
}

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, ...stack().env, TEMPORAL_TASK_QUEUE: `hostile-${port}`, PORT: String(port), PUBLIC_BASE_URL: base };
  worker = await forkService('worker/main.ts', env, 'worker', { logFile: stack().logFile });
  api = await forkService('api/server.ts', env, 'api', { logFile: stack().logFile });
  key = (await call('POST', '/v1/signup', { name: 'hostile' })).body.api_key;
}, 240_000);

afterAll(async () => {
  await stopChild(api);
  await stopChild(worker);
});

describe('hostile images', () => {
  it('are refused at upload with a clean 4xx problem naming the file, fast, and store nothing', async () => {
    const { id, token } = await newCase();
    const cases: [string, Buffer, number, string][] = [
      ['50000×50000 PNG (decompression bomb)', pngBomb(50_000, 50_000), 422, 'image_too_large'],
      ['JPEG claiming 65000×65000', await jpegClaiming(65_000, 65_000), 422, 'image_too_large'],
      ['truncated JPEG', await truncatedJpeg(), 422, 'image_unreadable'],
      ['GIF with 300 frames', await manyFrames('gif', 300), 415, 'unsupported_image_format'],
      ['animated WebP', await manyFrames('webp', 200), 415, 'animated_image'],
      ['TIFF', await tiff(), 415, 'unsupported_image_format'],
      ['HTML with a JPEG inside', htmlFirst(await documentImageForTests()), 415, 'unsupported_image_format'],
    ];
    for (const [what, bytes, status, code] of cases) {
      const started = Date.now();
      const r = await upload(token, 'document_front', bytes);
      expect({ what, status: r.status }).toEqual({ what, status });
      expect(r.type).toContain('application/problem+json');
      expect(r.body.errors[0]).toMatchObject({ field: 'file', code });
      expect(Date.now() - started).toBeLessThan(5000);
    }
    // The same files as the second frame of a liveness group: the whole group is refused, naming that frame.
    const challenge = (await call('POST', `/o/${token}/challenge`)).body;
    const meta = (i: number) => JSON.stringify({ nonce: challenge.nonce, timestamp_ms: i * 100, colour: challenge.colours[0].colour });
    const good = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#886655' } }).jpeg().toBuffer();
    for (const [what, bytes, status, code] of cases) {
      const form = new FormData();
      form.append('meta', meta(0));
      form.append('file', new Blob([new Uint8Array(good)]), 'frame-0.jpg');
      form.append('meta', meta(1));
      form.append('file', new Blob([new Uint8Array(bytes)]), 'frame-1.jpg');
      const r = await fetch(`${base}/o/${token}/frames`, { method: 'POST', body: form });
      const body = (await r.json()) as any;
      expect({ what, status: r.status }).toEqual({ what, status });
      expect(body.errors[0]).toMatchObject({ field: 'frames[1].file', code });
    }
    expect(await sql('select id from uploads where verification_id = $1', [id])).toEqual([]);
    expect(worker.exitCode).toBeNull();
  }, 120_000);

  it('that pass as images (an EXIF bomb with looping IFDs and a 65000×65000 thumbnail, a JPEG+HTML+ZIP polyglot, an image at the pixel limit) reach a terminal state with the worker alive and its peak RSS bounded', async () => {
    // a synthetic passport photo the document engine reads, so "reads the same" below means something
    const document = (await genuinePassportForTests(5)).image;
    const atLimit = await sharp({ create: { width: 7900, height: 5000, channels: 3, background: '#b0b0b0' } }).jpeg({ quality: 70 }).toBuffer(); // 39.5 MP
    const files: [string, Buffer][] = [['clean control', document], ['EXIF bomb', await exifBomb(document)], ['polyglot', polyglot(document)], ['39.5 MP image', atLimit]];
    const cases: { what: string; id: string }[] = [];
    for (const [what, bytes] of files) {
      const c = await newCase();
      const up = await upload(c.token, 'document_front', bytes);
      expect({ what, status: up.status }).toEqual({ what, status: 201 });
      expect((await call('POST', `/o/${c.token}/submit`, { document: { country: 'MOZ', type: 'passport' } })).status).toBe(202);
      cases.push({ what, id: c.id });
    }
    const checks: Record<string, Record<string, string>> = {};
    for (const c of cases) {
      const done = await waitFor(async () => {
        const r = await call('GET', `/v1/verifications/${c.id}`, undefined, key);
        return ['completed', 'failed'].includes(r.body.status) ? r.body : null;
      }, 240_000, 500);
      // a Case that could not assess its document says so; it is never a failed run
      expect({ what: c.what, status: done.status }).toEqual({ what: c.what, status: 'completed' });
      expect(['no_material_concerns', 'manual_review_recommended', 'material_inconsistency', 'assessment_incomplete']).toContain(done.assessment);
      checks[c.what] = Object.fromEntries(Object.entries(done.result.checks).map(([k, v]: [string, any]) => [k, v.status]));
      console.log(`hostile ${c.what}: ${done.assessment}; checks ${JSON.stringify(checks[c.what])}`);
    }
    // the hostile extras change nothing the document checks see: they read as the clean file does
    expect(checks['clean control']!.document_ocr).not.toBe('unavailable');
    for (const what of ['EXIF bomb', 'polyglot']) {
      expect({ what, ocr: checks[what]!.document_ocr, template: checks[what]!.template_match }).toEqual({ what, ocr: checks['clean control']!.document_ocr, template: checks['clean control']!.template_match });
    }
    expect(worker.exitCode).toBeNull();
    const peak = peakRssMb(worker.pid!);
    console.log(`hostile images: worker peak RSS ${peak.toFixed(0)} MB`);
    expect(peak).toBeLessThan(2048);
  }, 600_000);
});
