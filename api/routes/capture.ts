import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZCaptureSession, ZFramesResponse, ZProblem, ZSubmitBody, ZSubmitResponse, ZTokenParams, ZUploadKind, ZUploadResponse, type TUploadKind } from '../../domain/api-schemas.js';
import { AppError } from '../../domain/errors.js';
import { ZDocumentType, type TDocumentType } from '../../domain/documents.js';
import type { IVerification } from '../../db/entities/index.js';
import { readHostedAsset } from '../../hosted/assets.js';
import { errorPage, capturePage } from '../../hosted/pages.js';
import { pickLocale } from '../../hosted/i18n.js';
import QRCode from 'qrcode';
import { ZLivenessChallenge } from '../../domain/liveness.js';
import { mintCaptureSession, onboardingUrl } from '../../services/case-links.js';
import { startLivenessChallenge } from '../../services/liveness-challenge.js';
import { previewLiveFrame } from '../../services/live-preview.js';
import { LIVE_PREVIEW_MAX_BYTES, ZLivePreview } from '../../domain/live-preview.js';
import { listCaseUploads, projectBranding, resolveLinkCode, resolveSession, resolveSessionCase, storeFrames, storeUpload, submitCapture } from '../../services/capture.js';

// CSP (with the per-response style nonce), frame-ancestors, nosniff and the referrer policy come
// from api/plugins/security-headers.ts, on every response.
const PAGE_HEADERS = { 'cache-control': 'no-store' };

function throwSessionProblem(code: 'unauthorized' | 'session_expired' | 'link_expired' | 'verification_erased'): never {
  if (code === 'unauthorized') throw new AppError('unauthorized', 'This capture link is not valid.');
  throw new AppError(code === 'verification_erased' ? 'verification_erased' : 'session_expired', 'This capture session has expired; open your verification link again.');
}

async function sessionOrThrow(req: FastifyRequest, token: string): Promise<{ verification: IVerification; expiresAt: Date }> {
  const s = await resolveSession(req.em, token);
  if (s.ok) return s;
  throwSessionProblem(s.code);
}

/** An upload's `meta` form field: a JSON object, or a 400 naming `field`. */
function metaObject(value: unknown, field: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(String(value));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // not JSON: refused below like any other non-object
  }
  throw new AppError('validation_failed', 'meta must be a JSON object.', [{ field, code: 'invalid_json', message: 'not a JSON object' }]);
}

/**
 * The parts of a frames request: per frame a `meta` JSON field, then its `file`; at most `most`
 * frames and `maxBytes` in all. Refusals name the frame (`frames[i].…`); nothing is stored here.
 */
async function readFrameParts(req: FastifyRequest, { maxBytes, maxFramesPerRequest: most }: { maxBytes: number; maxFramesPerRequest: number }): Promise<{ bytes: Buffer; meta: Record<string, unknown> | null }[]> {
  const frames: { bytes: Buffer; meta: Record<string, unknown> | null }[] = [];
  let meta: Record<string, unknown> | null | undefined;
  let total = 0;
  const field = () => `frames[${frames.length}]`;
  try {
    for await (const part of req.parts({ limits: { files: most, fields: most, parts: 2 * most, fieldSize: 4096, fileSize: maxBytes } })) {
      if (part.type === 'file') {
        if (meta === undefined) throw new AppError('validation_failed', 'Each frame\'s meta field comes before its file.', [{ field: `${field()}.meta`, code: 'required', message: 'missing' }]);
        const bytes = await part.toBuffer();
        total += bytes.length;
        if (total > maxBytes) throw new AppError('payload_too_large', `The frames of one request are at most ${maxBytes} bytes together.`, [{ field: `${field()}.file`, code: 'payload_too_large', message: 'too large' }]);
        if (bytes.length === 0) throw new AppError('validation_failed', 'A frame\'s file is empty.', [{ field: `${field()}.file`, code: 'required', message: 'empty file' }]);
        frames.push({ bytes, meta });
        meta = undefined;
      } else if (part.fieldname === 'meta') {
        if (meta !== undefined) throw new AppError('validation_failed', 'Each meta field is followed by its frame\'s file.', [{ field: `${field()}.file`, code: 'required', message: 'missing' }]);
        meta = metaObject(part.value, `${field()}.meta`);
      } else {
        throw new AppError('validation_failed', `Unexpected field ${JSON.stringify(part.fieldname.slice(0, 40))}; send meta and file parts only.`, [{ field: part.fieldname.slice(0, 40), code: 'unexpected_field', message: 'not allowed' }]);
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw new AppError('too_many_uploads', `At most ${most} frames per request.`, [{ field: 'file', code: 'too_many_files', message: `at most ${most} frames` }]);
    }
    throw err;
  }
  if (meta !== undefined) throw new AppError('validation_failed', 'Each meta field is followed by its frame\'s file.', [{ field: `${field()}.file`, code: 'required', message: 'missing' }]);
  if (frames.length === 0) throw new AppError('validation_failed', 'The request carries no frames.', [{ field: 'frames[0].file', code: 'required', message: 'missing' }]);
  return frames;
}

/** The hosted page and the capture API under /o/{token}; the token is the only credential. */
export async function captureRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/hosted/:file', { schema: { hide: true, params: z.object({ file: z.string() }) } }, async (req, reply) => {
    const asset = await readHostedAsset(req.params.file);
    if (!asset) throw new AppError('not_found', 'No such asset.');
    return reply.type(asset.type).header('cache-control', 'public, max-age=300').send(asset.body);
  });

  const sendPage = (reply: FastifyReply, status: number, body: string) => reply.code(status).headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(body);

  app.get('/o/:token', { schema: { hide: true, params: ZTokenParams } }, async (req, reply) => {
    const locale = pickLocale(null, req.headers['accept-language']);
    const s = await resolveSession(req.em, req.params.token);
    if (!s.ok) return sendPage(reply, s.code === 'unauthorized' ? 401 : 410, errorPage(locale, {}, s.code === 'unauthorized' ? 'invalid' : s.code === 'verification_erased' ? 'erased' : 'expired', reply.cspNonce.style));
    const v = s.verification;
    const branding = await projectBranding(req.em, v.projectId);
    return sendPage(reply, 200, capturePage(pickLocale(v.locale, req.headers['accept-language']), branding, v.acceptedDocuments, v.status, reply.cspNonce.style, v.returnUrl ?? null));
  });

  // The short link lives as long as the Case's link; every open mints a fresh short-lived session.
  app.get('/l/:code', { schema: { hide: true, params: z.object({ code: z.string().min(8).max(64) }) } }, async (req, reply) => {
    const locale = pickLocale(null, req.headers['accept-language']);
    const r = await resolveLinkCode(req.em, req.params.code);
    if (!r.ok) return sendPage(reply, r.code === 'unauthorized' ? 401 : 410, errorPage(locale, {}, r.code === 'unauthorized' ? 'invalid' : r.code === 'verification_erased' ? 'erased' : 'expired', reply.cspNonce.style));
    const session = await mintCaptureSession(req.em, r.verification.id, req.deps.config.sessionTokenTtlSeconds, r.verification.linkExpiresAt);
    return reply.code(302).headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }).redirect(onboardingUrl(req.deps.config.publicBaseUrl, session.token));
  });

  app.get('/o/:token/session', {
    schema: { tags: ['capture'], summary: 'The capture session: accepted documents, steps, branding, expiry', params: ZTokenParams, response: { 200: ZCaptureSession, 401: ZProblem, 410: ZProblem } },
  }, async (req, reply) => {
    const { verification: v, expiresAt } = await sessionOrThrow(req, req.params.token);
    const uploads = await listCaseUploads(req.em, v.id);
    reply.headers({ 'cache-control': 'no-store' });
    return {
      case_id: v.id,
      status: v.status as z.infer<typeof ZCaptureSession>['status'],
      accepted_documents: v.acceptedDocuments,
      steps: ['document_front', 'document_back', 'liveness'],
      challenge: v.livenessChallenge ?? null,
      branding: await projectBranding(req.em, v.projectId),
      locale: pickLocale(v.locale, req.headers['accept-language']),
      expires_at: expiresAt.toISOString(),
      uploads,
    };
  });

  app.post('/o/:token/uploads', {
    schema: {
      tags: ['capture'], summary: 'Upload one capture (multipart: `kind`, optional `document_type` and `meta` JSON, then `file`); a document photo is answered with capture advice', consumes: ['multipart/form-data'], params: ZTokenParams,
      response: { 201: ZUploadResponse, 400: ZProblem, 401: ZProblem, 409: ZProblem, 410: ZProblem, 413: ZProblem, 415: ZProblem, 422: ZProblem },
    },
  }, async (req, reply) => {
    const s = await resolveSessionCase(req.em, req.params.token);
    if (!s.ok) throwSessionProblem(s.code);
    if (!req.isMultipart()) throw new AppError('unsupported_media_type', 'Uploads must be multipart/form-data.');
    let kind: TUploadKind | undefined;
    let meta: Record<string, unknown> | null = null;
    let documentType: TDocumentType | undefined;
    let file: Buffer | undefined;
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (file) throw new AppError('too_many_uploads', 'Send one file per upload request.', [{ field: 'file', code: 'too_many_files', message: 'one file per request' }]);
        file = await part.toBuffer();
      } else if (part.fieldname === 'kind') {
        const k = ZUploadKind.safeParse(part.value);
        if (!k.success) throw new AppError('validation_failed', `Unknown upload kind; expected one of ${ZUploadKind.options.join(', ')}.`, [{ field: 'kind', code: 'invalid_enum_value', message: 'unknown kind' }]);
        kind = k.data;
      } else if (part.fieldname === 'document_type') {
        const t = ZDocumentType.safeParse(part.value);
        if (!t.success) throw new AppError('validation_failed', `Unknown document_type; expected one of ${ZDocumentType.options.join(', ')}.`, [{ field: 'document_type', code: 'invalid_enum_value', message: 'unknown document type' }]);
        documentType = t.data;
      } else if (part.fieldname === 'meta') {
        meta = metaObject(part.value, 'meta');
      }
    }
    if (!kind) throw new AppError('validation_failed', 'The upload needs a kind field.', [{ field: 'kind', code: 'required', message: 'missing' }]);
    if (!file || file.length === 0) throw new AppError('validation_failed', 'The upload needs a file.', [{ field: 'file', code: 'required', message: 'missing' }]);
    const stored = await storeUpload(req.deps, s.caseId, kind, file, meta, documentType);
    return reply.code(201).send(stored);
  });

  // The live selfie's frames, several per request (the page sends them in groups while recording).
  app.post('/o/:token/frames', {
    schema: {
      tags: ['capture'],
      summary: 'Upload several liveness frames of the current challenge at once (multipart: for each frame a `meta` JSON field, then its `file`; at most UPLOAD_MAX_FRAMES_PER_REQUEST frames and UPLOAD_MAX_BYTES in all); stored all or none',
      consumes: ['multipart/form-data'], params: ZTokenParams,
      response: { 201: ZFramesResponse, 400: ZProblem, 401: ZProblem, 409: ZProblem, 410: ZProblem, 413: ZProblem, 415: ZProblem, 422: ZProblem },
    },
  }, async (req, reply) => {
    const s = await resolveSessionCase(req.em, req.params.token);
    if (!s.ok) throwSessionProblem(s.code);
    if (!req.isMultipart()) throw new AppError('unsupported_media_type', 'Uploads must be multipart/form-data.');
    const frames = await readFrameParts(req, req.deps.config.uploads);
    return reply.code(201).send(await storeFrames(req.deps, s.caseId, frames));
  });

  app.post('/o/:token/challenge', {
    schema: { tags: ['capture'], summary: 'Issue a fresh liveness challenge (steps, their timed slots after a neutral period, colour sequence, nonce, deadline); earlier frames are discarded', params: ZTokenParams, response: { 201: ZLivenessChallenge, 401: ZProblem, 409: ZProblem, 410: ZProblem } },
  }, async (req, reply) => {
    const { verification: v } = await sessionOrThrow(req, req.params.token);
    return reply.code(201).headers({ 'cache-control': 'no-store' }).send(await startLivenessChallenge(req.em, req.deps.blobs, v.id));
  });

  // Live preview frames arrive as raw image bytes (no multipart: one small frame, several a second).
  // Scoped to this plugin; the limit leaves room for the 413 to come from the service's own check.
  app.addContentTypeParser(['image/jpeg', 'image/png', 'image/webp'], { parseAs: 'buffer', bodyLimit: 2 * LIVE_PREVIEW_MAX_BYTES }, (_req, body, done) => done(null, body));

  app.post('/o/:token/preview', {
    config: { abuseLimit: 'capturePreview' },
    bodyLimit: 2 * LIVE_PREVIEW_MAX_BYTES,
    schema: {
      tags: ['capture'],
      summary: 'Live preview check: how many faces one small camera preview frame shows and where the largest face looks (raw JPEG, PNG or WebP body, at most 64 KiB); advice only, nothing is stored',
      consumes: ['image/jpeg', 'image/png', 'image/webp'], params: ZTokenParams,
      response: { 200: ZLivePreview, 400: ZProblem, 401: ZProblem, 409: ZProblem, 410: ZProblem, 413: ZProblem, 415: ZProblem, 422: ZProblem, 429: ZProblem },
    },
  }, async (req, reply) => {
    const { verification: v } = await sessionOrThrow(req, req.params.token);
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    return reply.headers({ 'cache-control': 'no-store' }).send(await previewLiveFrame(req.deps, v, body));
  });

  // Cross-device path: a device without a usable camera shows this QR code; scanning it opens a
  // fresh session of the same Case on a phone. The image is generated here, never by a third party.
  app.get('/o/:token/handoff.svg', { schema: { hide: true, params: ZTokenParams } }, async (req, reply) => {
    const { verification: v } = await sessionOrThrow(req, req.params.token);
    const session = await mintCaptureSession(req.em, v.id, req.deps.config.sessionTokenTtlSeconds, v.linkExpiresAt);
    const svg = await QRCode.toString(onboardingUrl(req.deps.config.publicBaseUrl, session.token), { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    return reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }).type('image/svg+xml').send(svg);
  });

  app.post('/o/:token/submit', {
    schema: { tags: ['capture'], summary: 'Submit the capture for assessment', params: ZTokenParams, body: ZSubmitBody, response: { 202: ZSubmitResponse, 400: ZProblem, 401: ZProblem, 409: ZProblem, 410: ZProblem, 422: ZProblem, 503: ZProblem } },
  }, async (req, reply) => {
    const { verification: v } = await sessionOrThrow(req, req.params.token);
    await submitCapture(req.deps, v.id, req.body.document);
    return reply.code(202).send({ status: 'pending' as const });
  });
}
