import { z } from 'zod';
import type { TDocumentType } from './documents.js';
import type { TUploadKind } from './api-schemas.js';

/**
 * Capture-time advice (issue 12 item 5): what a fast look at one document photo says the
 * applicant could fix before submitting. It only advises; the Case is judged in full after submit
 * and nothing here is evidence, stamped or stored.
 *
 * `CaptureAdvisor` is the port: `domain/` owns its contract, `engine/capture-advice.ts`
 * implements it, and the api's composition root (`api/server.ts`) injects it into the services.
 * Services and routes therefore never import `engine/`.
 */
export const CAPTURE_ISSUES = ['blurry', 'document_cut_off', 'mrz_not_found', 'mrz_unreadable'] as const;
export const ZCaptureIssue = z.enum(CAPTURE_ISSUES);
export type TCaptureIssue = z.infer<typeof ZCaptureIssue>;

export const ZCaptureAdvice = z
  .object({
    status: z.enum(['checked', 'unavailable']).describe('`unavailable`: the quick check did not run or ran out of time; nothing is implied about the photo'),
    issues: z.array(ZCaptureIssue).describe('What to fix, most important first; empty when nothing was seen to fix'),
    retake_suggested: z.boolean(),
    version: z.string().describe('Settings version of the quick check (not an engine profile: advice is never stamped on the Case)'),
    ms: z.number().int().nonnegative(),
  })
  .meta({ id: 'CaptureAdvice' });
export type TCaptureAdvice = z.infer<typeof ZCaptureAdvice>;

export interface CaptureAdviceRequest {
  /** Whether the photo should show an MRZ (a passport's data page, the back of an ID card or permit). */
  expectMrz: boolean;
}

export interface CaptureAdvisor {
  /** Never throws: a failure or a spent time budget answers `status: 'unavailable'`. */
  advise(image: Uint8Array, req: CaptureAdviceRequest): Promise<TCaptureAdvice>;
  close(): Promise<void>;
}

/**
 * Where an MRZ is expected: ICAO 9303 puts it on every passport's data page and on the back of
 * TD1 cards (identity cards, residence permits). Driving licences carry none. A national card
 * without one gets a hint it may ignore (the page says so).
 */
export function expectsMrz(type: TDocumentType | undefined, kind: TUploadKind): boolean {
  if (type === 'passport') return kind === 'document_front';
  if (type === 'national_id' || type === 'residence_permit') return kind === 'document_back';
  return false;
}
