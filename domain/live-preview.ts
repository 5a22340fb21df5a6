import { z } from 'zod';

/**
 * Live preview check of the hosted page (issue 14 item 4): the page sends a small frame of its
 * camera preview (at most 4 a second) and hears how many faces it shows and where the largest
 * face's nose sits, so that it can say "several faces" and "step not yet done" while the applicant
 * is still in front of the camera. It only advises: nothing is stored, stamped, logged or signalled,
 * and the Case's liveness check runs in full on the uploaded frames.
 *
 * `LivePreviewer` is the port: `domain/` owns its contract, `engine/capture-advice.ts` implements
 * it, and the api's composition root injects it (as for the document `CaptureAdvisor`).
 */
export const LIVE_PREVIEW_MAX_BYTES = 64 * 1024;

export const ZLivePreview = z
  .object({
    status: z.enum(['checked', 'unavailable']).describe('`unavailable`: the check did not run (busy, over its time budget, or no detector); nothing is implied about the frame'),
    faces: z.number().int().nonnegative().describe('Faces at least a quarter the size of the largest one (the liveness check\'s multiple-faces rule); 0 when unavailable'),
    face: z
      .object({
        yaw: z.number().describe('Nose offset from the eyes\' midpoint over the eye distance (0 frontal); compare with the applicant\'s own straight look'),
        pitch: z.number().describe('Nose height between the eye line (0) and the mouth line (1)'),
        size: z.number().describe('Face width over the frame width'),
      })
      .nullable(),
    version: z.string().describe('Settings version of the preview check (advice is never stamped on the Case)'),
    ms: z.number().int().nonnegative(),
  })
  .meta({ id: 'LivePreview' });
export type TLivePreview = z.infer<typeof ZLivePreview>;

export interface LivePreviewer {
  /** Never throws: a failure, an undecodable frame or a spent time budget answers `status: 'unavailable'`. */
  preview(image: Uint8Array): Promise<TLivePreview>;
  close(): Promise<void>;
}
