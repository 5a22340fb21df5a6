import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, videosDir } from '../../engine/assets.js';
import { documentImageForTests } from '../fixtures.js';
import { axeViolations, createApiKey, isSerious, launchChromium, signInAsNewOwner, type SignedIn } from '../browser.js';
import { createVerification, sql, stack, waitForStatus } from '../helpers.js';

/**
 * Injection evidence end to end (faces v4 `capture_source`): the real hosted page in Chromium
 * reports its camera track's facts and each camera frame it is handed; the worker's liveness
 * check turns them into one fused signal.
 *
 * Two cameras from the same real clip (liveportrait_d13), both Chromium's file-fed fake camera:
 * - `sensor`: every camera frame a different picture, as a sensor delivers them (30 fps);
 * - `swap`: the clip at 15 fps handed out at 30 fps, each picture twice — what a virtual camera
 *   does when the face swap feeding it renders slower than the camera's rate.
 * Both carry the fake device's label, which the signal rightly reads as a browser test device;
 * the repeated-frames finding must appear on `swap` only.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = path.join(REPO_ROOT, '.data', 'screenshots');
let dir: string;
let key: string;
// A reviewer's dashboard session on the same project, to look at the evidence as a reviewer sees it.
let dashboard: Browser;
let owner: SignedIn;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ivs-inject-'));
  mkdirSync(SHOTS, { recursive: true });
  dashboard = await launchChromium();
  owner = await signInAsNewOwner(dashboard, stack().apiUrl, `inject-${Date.now()}@example.com`);
  key = await createApiKey(owner, stack().apiUrl);
}, 120_000);

afterAll(async () => {
  await dashboard?.close();
  rmSync(dir, { recursive: true, force: true });
});

function camera(name: string, fps: string): string {
  const y4m = path.join(dir, `${name}.y4m`);
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-t', '14', '-i', path.join(videosDir(), 'liveportrait_d13.mp4'), '-vf', `scale=360:480,${fps}`, '-pix_fmt', 'yuv420p', y4m]);
  return y4m;
}

interface Signal { name: string; dissent: boolean | null; value: number | null; detail: Record<string, unknown> }

async function captureWith(y4m: string, shot: string): Promise<{ signal: Signal; status: string; reasons: string[]; dissenting: string[]; firstMeta: Record<string, unknown>; caseId: string }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${y4m}`],
  });
  try {
    const v = await createVerification(key, { accepted_documents: [{ country: 'MOZ', types: ['national_id'] }], locale: 'en' });
    const front = path.join(dir, 'front.jpg');
    writeFileSync(front, await documentImageForTests());
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(v.onboarding_url);
    await page.setInputFiles('input[name=document_front]', front);
    await page.getByRole('button', { name: 'Start the live selfie' }).click();
    await page.waitForSelector('#flash:not([hidden])', { timeout: 20_000 });
    await page.waitForTimeout(2500);
    await page.screenshot({ path: path.join(SHOTS, shot) });
    // Recorded and sent; with or without the "we did not see" advice (these clips do not perform the script).
    await page.locator('#live-status[data-missed]').waitFor({ timeout: 60_000 });
    expect(await page.locator('#live-status').textContent()).toMatch(/^Live selfie recorded/);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Thank you. Your verification was submitted').waitFor({ timeout: 60_000 });
    await context.close();
    const done = await waitForStatus(key, v.id, ['completed', 'failed'], 180_000);
    const liveness = done.result.checks.liveness;
    const signal = (liveness.evidence.attack.signals as Signal[]).find((x) => x.name === 'capture_source')!;
    // What the page sent with its frames, as stored (the raw facts stay in the upload, erased with the Case).
    const metas = await sql<{ meta: Record<string, unknown> }>("select meta from uploads where verification_id = $1 and kind = 'liveness_frame' and meta ? 'source'", [v.id]);
    expect(metas).toHaveLength(1);
    console.log(`capture_source ${shot}: status ${liveness.status as string} [${(liveness.reasons as string[]).join(',')}] dissenting [${(liveness.evidence.attack.dissenting as string[]).join(',')}], ${JSON.stringify(signal)}`);
    return { signal, status: liveness.status as string, reasons: liveness.reasons as string[], dissenting: liveness.evidence.attack.dissenting as string[], firstMeta: metas[0]!.meta, caseId: v.id as string };
  } finally {
    await browser.close();
  }
}

describe('injection evidence from the hosted page (real Chromium, real worker)', () => {
  it('a sensor-like camera: facts reported, no repeated frames; the fake device label is a finding', async () => {
    const { signal, firstMeta } = await captureWith(camera('sensor', 'fps=30'), 'hosted-injection-sensor.png');
    // The page reported the track's facts (label, settings, capabilities, devices) and its camera frames.
    const source = firstMeta.source as { label: string; settings: Record<string, unknown>; capabilities: string[]; devices: { videoinput: number }; clock: string };
    expect(source.label).toMatch(/sensor\.y4m$/);
    expect(source.settings.frameRate).toBe(30);
    expect(source.settings).not.toHaveProperty('deviceId');
    expect(source.capabilities).toContain('frameRate');
    expect(source.devices.videoinput).toBe(1);
    expect(source.clock).toBe('capture');
    expect(signal.detail.reported).toBe(true);
    expect(signal.detail.label_class).toBe('browser_fake');
    expect(JSON.stringify(signal.detail)).not.toContain('.y4m'); // the raw label stays out of the evidence
    expect(signal.detail.camera_frames as number).toBeGreaterThan(150); // ~30 fps over guidance and an 8-s script
    expect(signal.detail.duplicate_share as number).toBeLessThan(0.02);
    expect(signal.detail.findings).toEqual(['label_browser_fake']);
    expect((signal.detail.timing as { fps: number }).fps).toBeGreaterThan(25);
    expect(signal.dissent).toBe(true);
  }, 300_000);

  it('a swap rendering at half the camera rate: half the camera frames are repeats, and the signal says so', async () => {
    const { signal, caseId, reasons, dissenting } = await captureWith(camera('swap', 'fps=15,fps=30'), 'hosted-injection-swap.png');
    expect(signal.detail.camera_frames as number).toBeGreaterThan(150);
    expect(signal.value!).toBeGreaterThan(0.35);
    expect(signal.detail.findings).toEqual(['label_browser_fake', 'duplicate_frames']);
    expect(signal.dissent).toBe(true);
    // An injected video cannot follow the page's colours either: two independent dissents, failed by the signals alone.
    expect(dissenting).toEqual(expect.arrayContaining(['capture_source', 'screen_colour']));
    expect(reasons).toContain('presentation_attack_suspected');

    // The reviewer's Case page shows the signal with what made it dissent.
    await owner.page.goto(`${stack().apiUrl}/dashboard/projects/${owner.projectId}/verifications/${caseId}`);
    const row = owner.page.locator('table.evidence tr', { hasText: 'capture_source' }).first();
    await row.waitFor({ timeout: 15_000 });
    await row.scrollIntoViewIfNeeded();
    expect(await row.textContent()).toContain('duplicate_frames');
    const violations = await axeViolations(owner.page, path.join(SHOTS, 'dashboard-case-capture-source.png'));
    expect(violations.filter(isSerious)).toEqual([]);
  }, 300_000);
});
