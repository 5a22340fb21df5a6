import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedDir } from './assets.js';
import { createCaptureAdvisor } from './capture-advice.js';

const REAL = path.join(sharedDir(), 'documents-real', 'sivakumar-mahalingam__fastmrz__data__passport_uk.jpg');

describe.runIf(existsSync(REAL))('the capture advisor (worker thread, bounded)', () => {
  const advisor = createCaptureAdvisor({ deadlineMs: 60_000, maxInFlight: 1 });
  afterAll(() => advisor.close());

  it('answers in its thread, and refuses a second check while one runs instead of queueing it', async () => {
    expect(await advisor.warm()).toBe(true);
    const image = readFileSync(REAL);
    const [first, second] = await Promise.all([advisor.advise(image, { expectMrz: true }), advisor.advise(image, { expectMrz: true })]);
    expect(first).toMatchObject({ status: 'checked', issues: [], version: 'capture-advice@1.5.0' });
    expect(second).toEqual({ status: 'unavailable', issues: [], retake_suggested: false, version: 'capture-advice@1.5.0', ms: 0 });
  }, 120_000);

  it('answers unavailable for bytes it cannot decode, and past its deadline', async () => {
    expect((await advisor.advise(Buffer.from('not an image'), { expectMrz: true })).status).toBe('unavailable');
    const hurried = createCaptureAdvisor({ deadlineMs: 1 });
    try {
      expect((await hurried.advise(readFileSync(REAL), { expectMrz: true })).status).toBe('unavailable');
    } finally {
      await hurried.close();
    }
  }, 120_000);
});
