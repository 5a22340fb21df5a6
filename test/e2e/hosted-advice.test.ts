import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, sharedDir } from '../../engine/assets.js';
import { axeViolations, isSerious, launchChromium } from '../browser.js';
import { createVerification, signup, sql } from '../helpers.js';

// A real scan of a UK specimen passport page (documents-real, tuning split), and the same photo blurred.
const REAL = path.join(sharedDir(), 'documents-real', 'sivakumar-mahalingam__fastmrz__data__passport_uk.jpg');
const SHOTS = path.join(REPO_ROOT, '.data', 'screenshots');
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

let browser: Browser;
let dir: string;
let goodPath: string;
let blurryPath: string;

beforeAll(async () => {
  browser = await launchChromium();
  dir = mkdtempSync(path.join(os.tmpdir(), 'ivs-advice-'));
  mkdirSync(SHOTS, { recursive: true });
  if (!existsSync(REAL)) return;
  goodPath = path.join(dir, 'passport.jpg');
  blurryPath = path.join(dir, 'passport-blurry.jpg');
  writeFileSync(goodPath, readFileSync(REAL));
  const { width, height } = await sharp(REAL).metadata();
  writeFileSync(blurryPath, await sharp(REAL).blur(Math.max(width!, height!) / 400).jpeg({ quality: 90 }).toBuffer());
}, 60_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function storedFrontSha(caseId: string): Promise<string[]> {
  return (await sql<{ sha256: string }>(`select sha256 from uploads where verification_id = $1 and kind = 'document_front'`, [caseId])).map((r) => r.sha256);
}
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

async function expectAccessible(page: Page, shot: string) {
  const serious = (await axeViolations(page, path.join(SHOTS, shot))).filter(isSerious);
  expect(serious, JSON.stringify(serious, null, 1)).toEqual([]);
}

const CASES = [
  { locale: 'en', blurry: 'It is blurred', intro: 'This photo may be hard to read', retake: 'Take the photo again', ok: 'The photo looks clear.', keep: 'This is only advice' },
  { locale: 'pt', blurry: 'Está desfocada', intro: 'Esta foto pode ser difícil de ler', retake: 'Tirar a foto de novo', ok: 'A foto está nítida.', keep: 'É apenas um conselho' },
] as const;

describe.runIf(existsSync(REAL))('capture advice on the hosted page (real Chromium, phone viewport)', () => {
  for (const c of CASES) {
    it(`${c.locale}: a blurred passport photo gets advice at once and a retake that replaces it; axe-clean`, async () => {
      const { key } = await signup(`advice-e2e-${c.locale}`);
      const v = await createVerification(key, { accepted_documents: [{ country: 'GBR', types: ['passport'] }], locale: c.locale });
      // bypassCSP lets the axe script in; the page's own CSP is asserted in hosted-capture.test.ts.
      const context = await browser.newContext({ ...PHONE, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(v.onboarding_url);
      const advice = page.locator('#document_front-advice');
      const retake = page.getByRole('button', { name: c.retake });
      await expect(retake.isVisible()).resolves.toBe(false);

      await page.setInputFiles('input[name=document_front]', blurryPath);
      await page.locator('#document_front-advice.warn').waitFor({ timeout: 30_000 });
      expect(await advice.getAttribute('data-issues')).toContain('blurry');
      expect(await advice.innerText()).toContain(c.intro);
      expect(await advice.innerText()).toContain(c.blurry);
      expect(await advice.getAttribute('role')).toBe('status');
      await expect(retake.isVisible()).resolves.toBe(true);
      await expect(page.locator('#document_front-keep').isVisible()).resolves.toBe(true);
      expect(await page.locator('#document_front-keep').innerText()).toContain(c.keep);
      // The photo is stored as it is: the applicant may keep it.
      expect(await storedFrontSha(v.id)).toEqual([sha(blurryPath)]);
      await page.locator('.photo').first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SHOTS, `hosted-advice-${c.locale}-viewport.png`) });
      await expectAccessible(page, `hosted-advice-${c.locale}.png`);

      // Retake opens the file chooser (the camera on a phone); the new photo replaces the old one.
      const [chooser] = await Promise.all([page.waitForEvent('filechooser'), retake.click()]);
      await chooser.setFiles(goodPath);
      await page.locator('#document_front-advice.ok').waitFor({ timeout: 30_000 });
      expect(await advice.innerText()).toBe(c.ok);
      await expect(retake.isVisible()).resolves.toBe(false);
      expect(await storedFrontSha(v.id)).toEqual([sha(goodPath)]);
      await page.locator('.photo').first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SHOTS, `hosted-advice-${c.locale}-retaken-viewport.png`) });
      await expectAccessible(page, `hosted-advice-${c.locale}-retaken.png`);
      await context.close();
    }, 120_000);
  }

  it('without JavaScript the page still renders its form, with no empty advice or stray retake button', async () => {
    const { key } = await signup('advice-nojs');
    const v = await createVerification(key, { accepted_documents: [{ country: 'GBR', types: ['passport'] }], locale: 'en' });
    const context = await browser.newContext({ ...PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(v.onboarding_url);
    await expect(page.getByLabel('Photo of the document front').isVisible()).resolves.toBe(true);
    await expect(page.locator('.retake').first().isVisible()).resolves.toBe(false);
    await expect(page.locator('.advice').first().isVisible()).resolves.toBe(false);
    await page.screenshot({ path: path.join(SHOTS, 'hosted-advice-nojs.png'), fullPage: true });
    await context.close();
  }, 60_000);
});
