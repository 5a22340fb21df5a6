import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import sharp from 'sharp';
import { normalizeCountry, type TDocumentType } from '../domain/documents.js';
import { expectsMrz, type TCaptureAdvice } from '../domain/capture-advice.js';
import { AppError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { captureSubmittedSignal } from '../domain/workflow-messages.js';
import { CaptureSession, Project, Upload, Verification, type IVerification } from '../db/entities/index.js';
import { sha256Hex } from '../platform/crypto.js';
import { UPLOAD_KINDS, type TUploadKind } from '../domain/api-schemas.js';
import type { ServiceDeps } from './deps.js';
import { checkFrameMeta } from './liveness-challenge.js';

export type SessionLookup =
  | { ok: true; verification: IVerification; expiresAt: Date }
  | { ok: false; code: 'unauthorized' | 'session_expired' | 'link_expired' | 'verification_erased' };

/** Resolves a capture token to its Case. Unknown tokens are 401, expired ones 410: never another Case. */
export async function resolveSession(em: EntityManager, token: string): Promise<SessionLookup> {
  const session = await em.findOne(CaptureSession, { tokenHash: sha256Hex(token) });
  if (!session) return { ok: false, code: 'unauthorized' };
  const v = await em.findOne(Verification, { id: session.verificationId });
  if (!v || v.status === 'erased') return { ok: false, code: 'verification_erased' };
  if (session.expiresAt.getTime() <= Date.now()) return { ok: false, code: 'session_expired' };
  return { ok: true, verification: v, expiresAt: session.expiresAt };
}

/**
 * What `resolveSession` decides, for the upload path (8 requests per Case from the hosted page, 54
 * with one frame per request): one indexed join returning the Case id and state, instead of two
 * lookups loading the Case's JSON columns.
 */
export async function resolveSessionCase(em: EntityManager, token: string): Promise<{ ok: true; caseId: string } | { ok: false; code: 'unauthorized' | 'session_expired' | 'verification_erased' }> {
  const [row] = await em.execute<Array<{ verification_id: string; expires_at: Date | string; status: string | null }>>(
    'select s.verification_id, s.expires_at, v.status from capture_sessions s left join verifications v on v.id = s.verification_id where s.token_hash = ?',
    [sha256Hex(token)],
    'all',
  );
  if (!row) return { ok: false, code: 'unauthorized' };
  if (!row.status || row.status === 'erased') return { ok: false, code: 'verification_erased' };
  if (new Date(row.expires_at).getTime() <= Date.now()) return { ok: false, code: 'session_expired' };
  return { ok: true, caseId: row.verification_id };
}

export async function resolveLinkCode(em: EntityManager, code: string): Promise<{ ok: true; verification: IVerification } | { ok: false; code: 'unauthorized' | 'link_expired' | 'verification_erased' }> {
  const v = await em.findOne(Verification, { linkCodeHash: sha256Hex(code) });
  if (!v) return { ok: false, code: 'unauthorized' };
  if (v.status === 'erased') return { ok: false, code: 'verification_erased' };
  if (v.linkExpiresAt.getTime() <= Date.now()) return { ok: false, code: 'link_expired' };
  return { ok: true, verification: v };
}

type ImageFormat = 'jpeg' | 'png' | 'webp';

/** Magic-byte sniffing: the declared content type is not trusted. */
export function sniffImage(buf: Buffer): ImageFormat | 'heic' | null {
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpeg';
  if (buf.length >= 8 && buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (buf.length >= 12 && buf.toString('ascii', 0, 4) === 'RIFF' && buf.toString('ascii', 8, 12) === 'WEBP') return 'webp';
  if (buf.length >= 12 && buf.toString('ascii', 4, 8) === 'ftyp' && /^(heic|heix|hevc|heim|heis|mif1|msf1|avif)$/.test(buf.toString('ascii', 8, 12))) return 'heic';
  return null;
}

/** JPEG start-of-frame markers (baseline, extended, progressive, lossless; Huffman and arithmetic). */
const JPEG_SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/**
 * A JPEG's stored dimensions from its frame header, walking the segments by their lengths (so an
 * EXIF thumbnail's own header inside APP1 is skipped, as libvips does); null when no frame header
 * comes before the scan or the file ends first. A JPEG has one frame: no page count to check.
 */
export function jpegDimensions(buf: Buffer): { width: number; height: number } | null {
  let i = 2;
  while (i + 4 <= buf.length) {
    if (buf[i] !== 0xff) return null;
    const marker = buf[i + 1]!;
    if (marker === 0xff) { i++; continue; } // fill byte
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { i += 2; continue; } // no length
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or start of scan before any frame header
    const length = buf.readUInt16BE(i + 2);
    if (length < 2) return null;
    if (JPEG_SOF.has(marker)) {
      if (i + 9 > buf.length) return null;
      return { height: buf.readUInt16BE(i + 5), width: buf.readUInt16BE(i + 7) };
    }
    i += 2 + length;
  }
  return null;
}

/**
 * Checks an uploaded image before anything is stored: format by magic bytes, dimensions from the
 * header against the pixel limit (a decompression bomb is refused before it is decoded), then a
 * bounded decode of the whole image so truncated or corrupt files are refused too.
 * A JPEG's header is read here rather than by a separate libvips call: every upload passes
 * through this (55 per Case), and each sharp call costs the api's event loop about half a
 * millisecond before any decoding starts (issue 18, docs/notes/wt26e.md).
 */
export async function validateImage(buf: Buffer, maxPixels: number, field = 'file'): Promise<{ format: ImageFormat; width: number; height: number }> {
  const format = sniffImage(buf);
  if (format === 'heic') throw new AppError('unsupported_image_format', 'HEIC/HEIF images are not supported; capture as JPEG (on iPhone: Settings → Camera → Formats → Most Compatible).', [{ field, code: 'unsupported_image_format', message: 'HEIC is not supported' }]);
  if (!format) throw new AppError('unsupported_image_format', 'The file is not a JPEG, PNG or WebP image.', [{ field, code: 'unsupported_image_format', message: 'expected JPEG, PNG or WebP bytes' }]);
  let meta: { width?: number; height?: number; pages?: number } | null = format === 'jpeg' ? jpegDimensions(buf) : null;
  if (!meta) {
    try {
      meta = await sharp(buf, { limitInputPixels: false }).metadata();
    } catch {
      throw new AppError('image_unreadable', 'The image could not be read.', [{ field, code: 'image_unreadable', message: 'corrupt or truncated image' }]);
    }
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (!width || !height) throw new AppError('image_unreadable', 'The image has no dimensions.', [{ field, code: 'image_unreadable', message: 'no dimensions' }]);
  // A capture is one still: an animated WebP/PNG is refused rather than silently read as its first frame.
  if ((meta.pages ?? 1) > 1) throw new AppError('unsupported_image_format', `The image has ${meta.pages} frames; upload a single still image.`, [{ field, code: 'animated_image', message: 'animated images are not accepted' }]);
  if (width * height > maxPixels) throw new AppError('image_too_large', `The image has ${width}×${height} pixels; the limit is ${maxPixels} pixels.`, [{ field, code: 'image_too_large', message: 'too many pixels' }]);
  try {
    await sharp(buf, { limitInputPixels: maxPixels, failOn: 'truncated' }).resize(64, 64, { fit: 'inside' }).raw().toBuffer();
  } catch {
    throw new AppError('image_unreadable', 'The image could not be decoded.', [{ field, code: 'image_unreadable', message: 'corrupt or truncated image' }]);
  }
  return { format, width, height };
}

const SINGLE_KINDS: ReadonlySet<TUploadKind> = new Set(['document_front', 'document_back', 'selfie']);

const DOCUMENT_KINDS: ReadonlySet<TUploadKind> = new Set(['document_front', 'document_back']);

/**
 * Stores one capture. Document and selfie kinds replace an earlier upload of the same kind.
 * A document photo also gets capture advice (`deps.advisor`) once it is stored: the applicant may
 * keep it or retake it. `documentType` is the page's current choice; without it, the Case's only
 * accepted type if it has one, else no MRZ is expected.
 */
export async function storeUpload(deps: ServiceDeps, caseId: string, kind: TUploadKind, bytes: Buffer, meta: Record<string, unknown> | null, documentType?: TDocumentType): Promise<{ upload_id: string; kind: TUploadKind; sha256: string; advice?: TCaptureAdvice }> {
  const img = await validateImage(bytes, deps.config.uploads.maxPixels);
  const replacedBlobs: string[] = [];
  let acceptedTypes: string[] = [];
  // Direct inserts, updates and deletes rather than the unit of work, in a fork with an empty
  // identity map: the flush at commit would otherwise diff every entity the request loaded (the
  // Case with its JSON columns) on each upload request.
  const stored = await deps.em.transactional(async (tx) => {
    const now = new Date();
    const v = await lockCollectingCase(tx, caseId, now);
    acceptedTypes = [...new Set(v.accepted_documents.flatMap((d) => d.types))];
    const count = v.uploads;
    const replacing = SINGLE_KINDS.has(kind) ? await tx.find(Upload, { verificationId: caseId, kind }, { fields: ['blobKey'] }) : [];
    if (count - replacing.length + 1 > deps.config.uploads.maxFiles) {
      throw new AppError('too_many_uploads', `At most ${deps.config.uploads.maxFiles} uploads per verification.`, [{ field: 'file', code: 'too_many_uploads', message: 'upload limit reached' }]);
    }
    if (kind === 'liveness_frame') checkFrameMeta(v.liveness_challenge, meta);
    const blobKey = await deps.blobs.put(caseId, bytes);
    const sha256 = sha256Hex(bytes);
    const id = newId('upload');
    if (replacing.length > 0) {
      await tx.nativeDelete(Upload, { id: { $in: replacing.map((u) => u.id) } });
      replacedBlobs.push(...replacing.map((u) => u.blobKey));
    }
    await tx.insert(Upload, {
      id,
      verificationId: caseId,
      kind,
      blobKey,
      sha256,
      sizeBytes: bytes.length,
      mime: `image/${img.format}`,
      width: img.width,
      height: img.height,
      meta,
      createdAt: now,
    });
    return { upload_id: id, kind, sha256 };
  }, { clear: true });
  await Promise.all(replacedBlobs.map((k) => deps.blobs.delete(k)));
  if (!DOCUMENT_KINDS.has(kind)) return stored;
  const type = documentType ?? (acceptedTypes.length === 1 ? (acceptedTypes[0] as TDocumentType) : undefined);
  const advice = deps.advisor
    ? await deps.advisor.advise(bytes, { expectMrz: expectsMrz(type, kind) })
    : { status: 'unavailable' as const, issues: [], retake_suggested: false, version: 'none', ms: 0 };
  // Codes and timing only: the photo's content never reaches the log.
  deps.log.info({ caseId, kind, advice: advice.status, issues: advice.issues, ms: advice.ms }, 'capture advice');
  return { ...stored, advice };
}

/**
 * Takes the Case's row lock (as submit and erasure do), touches it, and returns its state and
 * upload count in one statement: three round trips of a lock, a count and an update in one.
 * Refuses a Case that is gone or no longer collecting.
 */
async function lockCollectingCase(tx: EntityManager, caseId: string, now: Date): Promise<{ accepted_documents: IVerification['acceptedDocuments']; liveness_challenge: unknown; uploads: number }> {
  const [v] = await tx.execute<Array<{ status: string; accepted_documents: IVerification['acceptedDocuments']; liveness_challenge: unknown; uploads: string | number }>>(
    `update verifications v set updated_at = ? where v.id = ?
     returning v.status, v.accepted_documents, v.liveness_challenge, (select count(*) from uploads u where u.verification_id = v.id) as uploads`,
    [now, caseId],
    'all',
  );
  if (!v) throw new AppError('verification_erased', 'This verification no longer exists.');
  if (v.status !== 'collecting') throw new AppError('capture_already_submitted', 'This capture has already been submitted; uploads are closed.');
  return { accepted_documents: v.accepted_documents, liveness_challenge: v.liveness_challenge, uploads: Number(v.uploads) };
}

/**
 * Stores several liveness frames of the current challenge, all or none: every image and every
 * frame's meta is checked before anything is written, and one transaction (one row lock, one
 * count, one insert) stores them. A refused batch names the frame (`frames[i].…`).
 */
export async function storeFrames(deps: ServiceDeps, caseId: string, frames: ReadonlyArray<{ bytes: Buffer; meta: Record<string, unknown> | null }>): Promise<{ uploads: { upload_id: string; kind: 'liveness_frame'; sha256: string }[] }> {
  const at = (i: number, err: unknown): never => {
    if (err instanceof AppError) throw new AppError(err.code, `Frame ${i + 1}: ${err.message}`, (err.errors ?? []).map((e) => ({ ...e, field: `frames[${i}].${e.field}` })));
    throw err;
  };
  const images: { format: ImageFormat; width: number; height: number }[] = [];
  for (const [i, f] of frames.entries()) images.push(await validateImage(f.bytes, deps.config.uploads.maxPixels).catch((err: unknown) => at(i, err)));
  const written: string[] = [];
  try {
    return await deps.em.transactional(async (tx) => {
      const now = new Date();
      const v = await lockCollectingCase(tx, caseId, now);
      if (v.uploads + frames.length > deps.config.uploads.maxFiles) {
        throw new AppError('too_many_uploads', `At most ${deps.config.uploads.maxFiles} uploads per verification; this Case has ${v.uploads}.`, [{ field: 'file', code: 'too_many_uploads', message: 'upload limit reached' }]);
      }
      frames.forEach((f, i) => {
        try {
          checkFrameMeta(v.liveness_challenge, f.meta);
        } catch (err) {
          at(i, err);
        }
      });
      const rows = [];
      for (const [i, f] of frames.entries()) {
        const blobKey = await deps.blobs.put(caseId, f.bytes);
        written.push(blobKey);
        const img = images[i]!;
        rows.push({ id: newId('upload'), verificationId: caseId, kind: 'liveness_frame', blobKey, sha256: sha256Hex(f.bytes), sizeBytes: f.bytes.length, mime: `image/${img.format}`, width: img.width, height: img.height, meta: f.meta, createdAt: now });
      }
      await tx.insertMany(Upload, rows);
      return { uploads: rows.map((r) => ({ upload_id: r.id, kind: 'liveness_frame' as const, sha256: r.sha256 })) };
    }, { clear: true });
  } catch (err) {
    // Nothing references these blobs: the rows were never committed.
    await Promise.all(written.map((k) => deps.blobs.delete(k).catch(() => undefined)));
    throw err;
  }
}

/** collecting → pending, then the workflow is signalled; a failed signal rolls the status back. */
export async function submitCapture(deps: ServiceDeps, caseId: string, document: { country: string; type: TDocumentType }): Promise<void> {
  await deps.em.transactional(async (tx) => {
    const v = await tx.findOneOrFail(Verification, { id: caseId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (v.status !== 'collecting') throw new AppError('capture_already_submitted', 'This capture has already been submitted.');
    if (v.linkExpiresAt.getTime() <= Date.now()) throw new AppError('link_expired', 'This verification link has expired.');
    const c = normalizeCountry(document.country);
    if (!c.ok) throw new AppError(c.code, 'Unknown or wildcard country.', [{ field: 'document.country', code: c.code, message: 'explicit ISO 3166-1 code required' }]);
    const accepted = v.acceptedDocuments.some((d) => d.country === c.alpha3 && d.types.includes(document.type));
    if (!accepted) throw new AppError('document_not_accepted', 'This document is not accepted for this verification.', [{ field: 'document', code: 'document_not_accepted', message: 'not in accepted_documents' }]);
    const front = await tx.count(Upload, { verificationId: caseId, kind: 'document_front' });
    if (!front) throw new AppError('document_image_required', 'Upload a photo of the document front before submitting.', [{ field: 'document_front', code: 'required', message: 'missing document_front upload' }]);
    const now = new Date();
    v.status = 'pending';
    v.declaredDocument = { country: c.alpha3, type: document.type };
    v.submittedAt = now;
    v.updatedAt = now;
    await tx.flush();
    try {
      await deps.temporal.workflow.getHandle(v.workflowId).signal(captureSubmittedSignal, { submittedAt: now.toISOString() });
    } catch (err) {
      deps.log.error({ caseId, err: (err as Error).name }, 'capture signal failed');
      throw new AppError('workflow_unavailable', 'The submission could not be queued; please try again.');
    }
  });
}

/**
 * The applicant's uploads so far, oldest first (ids and kinds only: what the hosted page resumes
 * from). Only the kinds the capture API takes: the images the checks derive once the Case is
 * submitted (activities/derived-uploads.ts) are not the applicant's, and listing them made the
 * session answer 500 after processing began (its schema rightly knows only these kinds).
 */
export async function listCaseUploads(em: EntityManager, caseId: string): Promise<{ upload_id: string; kind: TUploadKind }[]> {
  const uploads = await em.find(Upload, { verificationId: caseId, kind: { $in: [...UPLOAD_KINDS] } }, { orderBy: { createdAt: 'asc' } });
  return uploads.map((u) => ({ upload_id: u.id, kind: u.kind as TUploadKind }));
}

export async function projectBranding(em: EntityManager, projectId: string): Promise<Record<string, unknown>> {
  const p = await em.findOne(Project, { id: projectId });
  return { name: p?.name, ...(p?.branding ?? {}) };
}
