import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, videosDir } from '../../engine/assets.js';
import { api, createVerification, sampleJpeg, signup, submit, tokenOf, upload, waitFor, waitForStatus } from '../helpers.js';
import { documentImageForTests } from '../fixtures.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
let dir: string;
let browser: Browser;
/** The integrator's page the applicant returns to (`return_url`): it records every path it is asked for. */
let returnServer: http.Server;
let returnBase: string;
const returned: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ivs-e2e-'));
  returnServer = http.createServer((req, res) => { returned.push(req.url ?? ''); res.end('<!doctype html><title>Back at the shop</title><h1>Back at the shop</h1>'); });
  await new Promise<void>((r) => returnServer.listen(0, '127.0.0.1', r));
  returnBase = `http://127.0.0.1:${(returnServer.address() as AddressInfo).port}`;
  // A real clip of a person (blinking, head still) as the fake front camera, in the y4m format Chromium reads.
  const y4m = path.join(dir, 'camera.y4m');
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-t', '12', '-i', path.join(videosDir(), 'liveportrait_d13.mp4'), '-vf', 'scale=480:480,fps=15', '-pix_fmt', 'yuv420p', y4m]);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${y4m}`,
    ],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  returnServer?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('hosted capture in a real browser', () => {
  it('captures the document and the live selfie through the real page and completes the Case with liveness evidence', async () => {
    const { key } = await signup('e2e');
    const returnUrl = `${returnBase}/kyc/done?order=A-17`;
    const v = await createVerification(key, { accepted_documents: [{ country: 'MOZ', types: ['national_id'] }], locale: 'en', return_url: returnUrl });
    const front = path.join(dir, 'front.jpg');
    writeFileSync(front, await documentImageForTests());

    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const consoleLines: string[] = [];
    const shots = path.join(REPO_ROOT, '.data', 'screenshots');
    mkdirSync(shots, { recursive: true });
    page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
    // The capture requests the page sends, by route: frames go up in groups, not one per request.
    const posts: string[] = [];
    page.on('request', (r) => { if (r.method() === 'POST') posts.push(new URL(r.url()).pathname.split('/').pop()!); });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => console.error(`csp-violation ${e.violatedDirective} ${e.blockedURI}`));
    });
    const response = await page.goto(v.onboarding_url);
    const csp = response!.headers()['content-security-policy']!;
    expect(csp).toMatch(/style-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    // the nonce'd inline <style> with the branding colours applied
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--primary').trim())).toBe('#1f5eff');
    await page.screenshot({ path: path.join(shots, 'hosted-start.png'), fullPage: true });
    await expect(page.getByRole('heading', { name: 'Verify your identity' }).isVisible()).resolves.toBe(true);
    await page.setInputFiles('input[name=document_front]', front);
    await page.getByRole('button', { name: 'Start the live selfie' }).click();
    await page.waitForSelector('#flash:not([hidden])', { timeout: 15_000 });
    await page.screenshot({ path: path.join(shots, 'hosted-liveness.png') });
    // Recorded and sent; with or without the "we did not see" advice (these clips do not perform the script).
    await page.locator('#live-status[data-missed]').waitFor({ timeout: 60_000 });
    expect(await page.locator('#live-status').textContent()).toMatch(/^Live selfie recorded/);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Thank you. Your verification was submitted. Taking you back').waitFor({ timeout: 60_000 });
    // return_url: a "Continue" link there at once, then the page goes there by itself.
    expect(await page.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe(returnUrl);
    await page.screenshot({ path: path.join(shots, 'hosted-submitted.png') });
    await page.waitForURL(returnUrl, { timeout: 15_000 });
    expect(returned).toContain('/kyc/done?order=A-17');
    await context.close();
    expect(consoleLines.filter((l) => /csp-violation|Content Security Policy/i.test(l))).toEqual([]);
    const frameRequests = posts.filter((p) => p === 'frames').length;
    expect(posts.filter((p) => p === 'uploads')).toHaveLength(1); // the document front only
    expect(frameRequests).toBeGreaterThanOrEqual(5);

    const session = await api('GET', `/v1/verifications/${v.id}`, { key });
    expect(['pending', 'processing', 'completed']).toContain(session.body.status);
    const done = await waitForStatus(key, v.id, ['completed', 'failed'], 180_000);
    expect(done.status).toBe('completed');
    const liveness = done.result.checks.liveness;
    expect(liveness).toBeDefined();
    expect(liveness.status).not.toBe('unavailable');
    // ~8 s recorded at 10 fps through the real page, bound to the issued challenge
    expect(liveness.evidence.frames.total).toBeGreaterThan(40);
    expect(frameRequests).toBe(Math.ceil(liveness.evidence.frames.total / 8)); // hosted/capture.js FRAMES_PER_REQUEST
    expect(liveness.evidence.binding.foreign_nonce_frames).toBe(0);
    expect(liveness.evidence.frames.with_face).toBeGreaterThan(30);
    // the page followed the server's timed script: the whole script recorded, the neutral period first
    expect(liveness.component).toBe('face-engine@2');
    expect(liveness.evidence.capture.long_enough).toBe(true);
    expect(liveness.evidence.challenge.neutral.frames).toBeGreaterThanOrEqual(10);
    // the clip does not perform the issued steps, so the challenge must not pass
    expect(liveness.reasons).toContain('liveness_challenge_incomplete');
  }, 300_000);

  it('a desktop page that handed the capture to a phone finishes by itself once the phone submits, and returns to return_url', async () => {
    const { key } = await signup('e2e handoff');
    const returnUrl = `${returnBase}/after-handoff`;
    const v = await createVerification(key, { accepted_documents: [{ country: 'MOZ', types: ['national_id'] }], locale: 'es', return_url: returnUrl });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    // A desktop whose camera is refused: the page offers the phone (QR code) and waits for it.
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
    });
    await page.goto(v.onboarding_url);
    await page.getByRole('button', { name: 'Comenzar la selfie en vivo' }).click();
    await page.locator('#handoff').waitFor({ state: 'visible' });
    await page.screenshot({ path: path.join(REPO_ROOT, '.data', 'screenshots', 'hosted-handoff-waiting.png') });
    // The phone: the document photo and the submit through the capture API, with the same link.
    const token = tokenOf(v.onboarding_url);
    expect((await upload(token, 'document_front', await sampleJpeg())).status).toBe(201);
    expect((await submit(token, { country: 'MOZ', type: 'national_id' })).status).toBe(202);
    await page.getByText('Tu verificación fue enviada desde tu teléfono.').waitFor({ timeout: 20_000 });
    expect(await page.getByRole('link', { name: 'Continuar' }).getAttribute('href')).toBe(returnUrl);
    await page.screenshot({ path: path.join(REPO_ROOT, '.data', 'screenshots', 'hosted-handoff-done.png') });
    await page.waitForURL(returnUrl, { timeout: 15_000 });
    await waitFor(async () => returned.includes('/after-handoff'));
    await context.close();
  }, 120_000);
});
