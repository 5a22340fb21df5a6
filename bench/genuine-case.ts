/**
 * A genuine Case through the real API and capture endpoints, shared by `bench:cases` and `chaos`.
 *
 * The applicant is the one of test/integration/genuine-applicant.test.ts: a real clip of a person
 * answering the liveness challenge (shared videos) and a synthetic passport carrying that person's
 * face, photographed with the project's phone-camera model. A Case: create (with the claimed
 * identity), the challenge the clip answers (seeded in the database, as the genuine-applicant test
 * does: the server would issue a random one), document upload, every liveness frame, submit.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import sharp from 'sharp';
import { modelsDir, videosDir } from '../engine/assets.js';
import { encodeCameraJpeg, exifDate, photograph as cameraCapture } from '../tools/authenticity/attacks/camera.js';
import { createRng } from '../tools/authenticity/training/rng.js';
import { renderDocument } from '../tools/corpus/index.js';
import { loadFaceModels } from '../engine/faces/models-bundle.js';
import { FACE_SETTINGS_V2 } from '../engine/faces/settings.js';
import { decodeClip } from '../tools/faces/testing/clips.js';
import { labelledCapture, labelledCases } from '../tools/faces/testing/labelled.js';

export interface GenuineApplicant {
  frames: { image: Buffer; meta: unknown }[];
  challenge: Record<string, unknown>;
  identity: { given_names: string; surnames: string; date_of_birth: string; document_number: string };
  /** The document photo, encoded now (or at `at`): the phone writes the capture time into EXIF. */
  photographNow(at?: Date): Promise<Buffer>;
}

/** Builds the applicant once (decodes the clip, renders and photographs the passport: seconds). */
export async function prepareGenuineApplicant(): Promise<GenuineApplicant> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ivs-genuine-'));
  try {
    // A real clip answering a timed-script challenge (engine profile ep-2026.11-5, faces v2).
    const models = await loadFaceModels(modelsDir(), FACE_SETTINGS_V2);
    const { frames, challenge } = await labelledCapture(models, labelledCases().find((c) => c.id === 'g_krzysiek_turns')!, { light: true });
    await models.release();
    const [frontal] = await decodeClip(path.join(videosDir(), 'krzysiek_real.mp4'), { startS: 1, durationS: 0.1, fps: 10, maxSide: 720 });
    const portrait = path.join(dir, 'portrait.jpg');
    writeFileSync(portrait, frontal!.image);
    const doc = await renderDocument({ template: 'moz-passport', seed: 5, portrait: { identity: 'krzysiek', file: portrait } });
    const { data, info } = await sharp(doc.image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const shot = await cameraCapture({ width: info.width, height: info.height, rgb: new Uint8Array(data), zones: [] }, createRng(5), { capturedAt: new Date() });
    const id = doc.truth.identity;
    // The photo is encoded once. Per Case only its EXIF capture time changes (DateTime and
    // DateTimeOriginal, 19 ASCII characters each), so those bytes are rewritten instead of the
    // passport being encoded again for every Case: the bench client shares the cores it measures.
    // The rest of the file is the same for any capture time (same seeded random draws).
    const encodedAt = new Date();
    const encoded = await encodeCameraJpeg(shot, createRng(6), encodedAt, undefined, 'annex_k');
    const stamp = Buffer.from(exifDate(encodedAt), 'latin1');
    const stampAt: number[] = [];
    for (let i = encoded.indexOf(stamp); i >= 0; i = encoded.indexOf(stamp, i + stamp.length)) stampAt.push(i);
    return {
      frames,
      challenge: challenge as unknown as Record<string, unknown>,
      identity: { given_names: id.given_names, surnames: id.surnames, date_of_birth: id.date_of_birth, document_number: id.document_number },
      // Encoded per Case, at upload time, or the authenticity check rightly sees a photo taken
      // before the session (after its 5-minute tolerance). Annex K tables, as real phones of the
      // corpus write them (the recipe's presets 2–5 are software tables to authenticity v6).
      photographNow: async (at = new Date()) => {
        if (stampAt.length === 0) return encodeCameraJpeg(shot, createRng(6), at, undefined, 'annex_k');
        const photo = Buffer.from(encoded);
        for (const i of stampAt) photo.write(exifDate(at), i, 'latin1');
        return photo;
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface CaptureOptions {
  /** An api base URL, or one per attempt (several api processes). */
  base: string | (() => string);
  key: string;
  db: pg.Pool;
  applicant: GenuineApplicant;
  linkExpiresIn?: number;
  /**
   * Chaos runs: a request that gets no answer (connection refused or reset: the api is down) or a
   * 5xx (PostgreSQL or Temporal is down) is sent again, as a client with retries would, until
   * `retryForMs` has passed. Off: the first failure throws (benchmarks).
   */
  retryForMs?: number;
  /** Called for each request sent again (counts for the chaos figures). */
  onRetry?: (what: string) => void;
  /** Called once the Case exists (its id), before capture. */
  onCreated?: (id: string) => void;
  /** Called when a create sent again was answered with the Case it had made (`Idempotent-Replayed`). */
  onReplayed?: () => void;
  /**
   * Liveness frames per request to `POST /o/{token}/frames`, as the hosted page sends them
   * (FRAMES_PER_REQUEST, 8). 1: each frame alone to `POST /o/{token}/uploads`, the older path.
   */
  framesPerRequest?: number;
}

/** The hosted page's frame groups: 8 per request (hosted/capture.js FRAMES_PER_REQUEST). */
export const PAGE_FRAMES_PER_REQUEST = 8;

class Retryable extends Error {}

/**
 * One upload's multipart body (kind, optional meta, file), as the hosted page's FormData sends it.
 * Built once per liveness frame (the frames are the same for every Case) and sent as bytes: the
 * bench client's own CPU shares the machine with the stack it measures.
 */
const BOUNDARY = '----ivs-bench-7d1f3c9a2b';
function multipartBody(kind: string, bytes: Buffer, meta?: unknown): Uint8Array<ArrayBuffer> {
  const field = (name: string, value: string) => `--${BOUNDARY}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = field('kind', kind) + (meta ? field('meta', JSON.stringify(meta)) : '') + `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="f.jpg"\r\ncontent-type: application/octet-stream\r\n\r\n`;
  return new Uint8Array(Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]));
}
const frameBodies = new WeakMap<object, Uint8Array<ArrayBuffer>>();

/** Several frames' multipart body for `POST /o/{token}/frames`: per frame its meta, then its file. */
function framesBody(frames: ReadonlyArray<{ image: Buffer; meta: unknown }>): Uint8Array<ArrayBuffer> {
  const parts = frames.flatMap((f, i) => [
    Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="meta"\r\n\r\n${JSON.stringify(f.meta)}\r\n--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="frame-${i}.jpg"\r\ncontent-type: application/octet-stream\r\n\r\n`),
    f.image,
    Buffer.from('\r\n'),
  ]);
  return new Uint8Array(Buffer.concat([...parts, Buffer.from(`--${BOUNDARY}--\r\n`)]));
}
/** Per applicant's frame list and group size: the group bodies, built once. */
const groupBodies = new WeakMap<object, Map<number, Uint8Array<ArrayBuffer>[]>>();

/** Creates and captures one Case; resolves at submit with its id and the submit time (performance.now()). */
export async function captureGenuineCase(o: CaptureOptions): Promise<{ id: string; submitted: number; captureMs: number }> {
  const baseOf = typeof o.base === 'string' ? () => o.base as string : o.base;
  const retryUntil = Date.now() + (o.retryForMs ?? 0);
  const attempt = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    for (let wait = 250; ; wait = Math.min(wait * 2, 2000)) {
      try {
        return await fn();
      } catch (err) {
        const retryable = err instanceof Retryable || (err as Error).name === 'TypeError' /* fetch: no answer */ || /ECONNREFUSED|ECONNRESET|terminat|Connection|57P0/.test(String((err as Error).message) + String((err as { code?: string }).code));
        if (!retryable || Date.now() > retryUntil) throw err;
        o.onRetry?.(what);
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  };
  // One key per Case, as a retrying client must send: a create sent again after its answer was lost answers the same Case.
  const idempotencyKey = randomUUID();
  const request = async (method: string, p: string, body?: unknown, accept: number[] = []) => attempt(`${method} ${p.replace(/\/o\/[^/]+/, '/o/…')}`, async () => {
    const r = await fetch(`${baseOf()}${p}`, { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), 'x-api-key': o.key, ...(p === '/v1/verifications' ? { 'idempotency-key': idempotencyKey } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    if (r.status >= 500) throw new Retryable(`${method} ${p}: ${r.status} ${text}`);
    if (r.status >= 300 && !accept.includes(r.status)) throw new Error(`${method} ${p}: ${r.status} ${text}`);
    if (r.headers.get('idempotent-replayed') === 'true') o.onReplayed?.();
    return { status: r.status, body: (text ? JSON.parse(text) : null) as any };
  });

  const t0 = performance.now();
  const id = o.applicant.identity;
  const v = (await request('POST', '/v1/verifications', {
    accepted_documents: [{ country: 'MOZ', types: ['passport'] }],
    applicant: id,
    ...(o.linkExpiresIn ? { link_expires_in: o.linkExpiresIn } : {}),
  })).body;
  o.onCreated?.(v.id);
  const token = new URL(v.onboarding_url).pathname.split('/').pop()!;
  const now = new Date();
  await attempt('seed challenge', () => o.db.query('update verifications set liveness_challenge = $2 where id = $1', [v.id, { ...o.applicant.challenge, issued_at: now.toISOString(), deadline: new Date(now.getTime() + 600_000).toISOString() }]));
  const send = (kind: string, body: Uint8Array<ArrayBuffer>, route = 'uploads') => attempt(`upload ${kind}`, async () => {
    const r = await fetch(`${baseOf()}/o/${token}/${route}`, { method: 'POST', body, headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } });
    const text = await r.text();
    if (r.status >= 500) throw new Retryable(`upload ${r.status} ${text}`);
    if (r.status !== 201) throw new Error(`upload ${r.status} ${text}`);
  });
  await send('document_front', multipartBody('document_front', await o.applicant.photographNow()));
  const perRequest = o.framesPerRequest ?? PAGE_FRAMES_PER_REQUEST;
  if (perRequest <= 1) {
    for (const f of o.applicant.frames) {
      let body = frameBodies.get(f);
      if (!body) frameBodies.set(f, (body = multipartBody('liveness_frame', f.image, f.meta)));
      await send('liveness_frame', body);
    }
  } else {
    let bySize = groupBodies.get(o.applicant.frames);
    if (!bySize) groupBodies.set(o.applicant.frames, (bySize = new Map()));
    let groups = bySize.get(perRequest);
    if (!groups) {
      groups = [];
      for (let i = 0; i < o.applicant.frames.length; i += perRequest) groups.push(framesBody(o.applicant.frames.slice(i, i + perRequest)));
      bySize.set(perRequest, groups);
    }
    for (const body of groups) await send('liveness_frame', body, 'frames');
  }
  const submitted = performance.now();
  // A submit whose answer was lost may have gone through: 409 capture_already_submitted then says so.
  const s = await request('POST', `/o/${token}/submit`, { document: { country: 'MOZ', type: 'passport' } }, o.retryForMs ? [409] : []);
  if (s.status === 409 && s.body?.errors?.[0]?.code !== 'capture_already_submitted' && s.body?.code !== 'capture_already_submitted') throw new Error(`submit: 409 ${JSON.stringify(s.body)}`);
  return { id: v.id, submitted, captureMs: submitted - t0 };
}
