import sharp from 'sharp';
import type { CaptureAdvisor, TCaptureAdvice } from '../domain/capture-advice.js';
import { adviseCapture, CAPTURE_ADVICE_V1, type CaptureAdviceSettings } from './document/advice.js';
import { DOCUMENT_SETTINGS_V2 } from './document/settings.js';
import { mrzWorker } from './document/ocr/workers.js';

/**
 * The engine's implementation of the `CaptureAdvisor` port (domain/capture-advice.ts), the one
 * engine file the api's composition root may import (ARCHITECTURE.md). It runs inside the api
 * process because the answer is due within the upload request: a Temporal round trip to a worker
 * busy with whole Cases would add queueing the applicant waits for.
 *
 * Bounded so that it can never slow uploads down: at most `maxInFlight` checks at once (more
 * answer `unavailable` at once), and a deadline after which the upload answers without advice.
 */
export interface CaptureAdvisorOptions {
  settings?: CaptureAdviceSettings;
  deadlineMs?: number;
  maxInFlight?: number;
}

export function createCaptureAdvisor(opts: CaptureAdvisorOptions = {}): CaptureAdvisor & { warm(): Promise<boolean> } {
  const s = opts.settings ?? CAPTURE_ADVICE_V1;
  const deadlineMs = opts.deadlineMs ?? 2500;
  const maxInFlight = opts.maxInFlight ?? 2;
  // The MRZ model of the current document engine, checked against its pinned sha256 on start.
  const tesseract = mrzWorker(DOCUMENT_SETTINGS_V2.tessdata.mrzSha256);
  let inFlight = 0;
  const unavailable = (ms: number): TCaptureAdvice => ({ status: 'unavailable', issues: [], retake_suggested: false, version: s.version, ms });

  return {
    async advise(image, req) {
      const t0 = Date.now();
      if (inFlight >= maxInFlight) return unavailable(0);
      inFlight++;
      // The slot is freed when the work ends, not at the deadline: a late check still holds the CPU.
      const work = adviseCapture(Buffer.from(image.buffer, image.byteOffset, image.byteLength), req.expectMrz, tesseract, s).finally(() => { inFlight--; });
      let timer: NodeJS.Timeout | undefined;
      try {
        const late = new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), deadlineMs); });
        const r = await Promise.race([work, late]);
        const ms = Date.now() - t0;
        if (!r || r.failed) return unavailable(ms);
        return { status: 'checked', issues: r.issues, retake_suggested: r.issues.length > 0, version: s.version, ms };
      } catch {
        return unavailable(Date.now() - t0);
      } finally {
        clearTimeout(timer);
      }
    },
    /** Starts the OCR worker ahead of the first upload (about a second); false if the model is missing. */
    async warm() {
      try {
        // A blank strip of MRZ size (tesseract.js throws out of its worker on images under 3 px).
        const blank = await sharp({ create: { width: 600, height: 80, channels: 3, background: '#ffffff' } }).png().toBuffer();
        await tesseract.recognize(blank, { user_defined_dpi: '300' }, 10_000, { lines: false });
        return true;
      } catch {
        return false;
      }
    },
    close: () => tesseract.close(),
  };
}
