import { AppError } from '../domain/errors.js';
import { LIVE_PREVIEW_MAX_BYTES, type TLivePreview } from '../domain/live-preview.js';
import type { IVerification } from '../db/entities/index.js';
import { validateImage } from './capture.js';
import type { ServiceDeps } from './deps.js';

/** A preview frame is a small copy of the camera picture (the page sends 320 × 240). */
const PREVIEW_MAX_PIXELS = 640 * 480;

/**
 * The hosted page's live preview check: faces in one small preview frame (domain/live-preview.ts).
 * Nothing is stored or logged: the frame lives for the request only. Bad bytes get the same
 * problem+json as an upload (field `body`); a missing or busy detector answers `unavailable`.
 */
export async function previewLiveFrame(deps: ServiceDeps, v: IVerification, bytes: Buffer): Promise<TLivePreview> {
  if (v.status !== 'collecting') throw new AppError('capture_already_submitted', 'This capture has already been submitted; the camera preview is closed.');
  if (bytes.length === 0) throw new AppError('validation_failed', 'The preview needs an image body.', [{ field: 'body', code: 'required', message: 'missing' }]);
  if (bytes.length > LIVE_PREVIEW_MAX_BYTES) throw new AppError('payload_too_large', `A preview frame is at most ${LIVE_PREVIEW_MAX_BYTES} bytes.`, [{ field: 'body', code: 'too_large', message: `at most ${LIVE_PREVIEW_MAX_BYTES} bytes` }]);
  await validateImage(bytes, PREVIEW_MAX_PIXELS, 'body');
  if (!deps.previewer) return { status: 'unavailable', faces: 0, face: null, version: 'none', ms: 0 };
  return deps.previewer.preview(bytes);
}
