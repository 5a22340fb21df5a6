import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, videosDir } from '../../engine/assets.js';
import { STRINGS } from '../../hosted/i18n.js';
import { axeViolations, isSerious, type AxeViolation } from '../browser.js';
import { createVerification, signup } from '../helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = path.join(REPO_ROOT, '.data', 'screenshots');
let dir: string;
let key: string;

/**
 * A real clip of a person (liveportrait_d13, selfie framing, evenly lit) turned by ffmpeg into the
 * camera conditions the page must warn about, and fed to Chromium as its fake front camera.
 */
function camera(name: string, filter: string): string {
  const y4m = path.join(dir, `${name}.y4m`);
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-t', '6', '-i', path.join(videosDir(), 'liveportrait_d13.mp4'), '-vf', `${filter},fps=10`, '-pix_fmt', 'yuv420p', y4m]);
  return y4m;
}

async function guidanceShown(y4m: string, locale: 'en' | 'es' | 'pt', shot?: string): Promise<{ key: string; text: string; log: string[]; violations: AxeViolation[] }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${y4m}`,
    ],
  });
  try {
    const v = await createVerification(key, { accepted_documents: [{ country: 'MOZ', types: ['national_id'] }], locale });
    // bypassCSP only where axe-core must be injected for the accessibility check.
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, bypassCSP: Boolean(shot) });
    const page = await context.newPage();
    const log: string[] = [];
    page.on('console', (m) => log.push(m.text()));
    await page.goto(v.onboarding_url);
    await page.getByRole('button', { name: STRINGS[locale].liveStart }).click();
    await page.waitForSelector('#guidance[data-guidance]:not([hidden])', { timeout: 15_000 });
    // Let the camera settle for a few measurements, then read what the applicant is told.
    await page.waitForTimeout(1500);
    const el = page.locator('#guidance');
    const out = { key: (await el.getAttribute('data-guidance')) ?? '', text: (await el.textContent()) ?? '', log, violations: shot ? await axeViolations(page, shot) : [] };
    await context.close();
    return out;
  } finally {
    await browser.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ivs-guidance-'));
  key = (await signup('guidance')).key;
  mkdirSync(SHOTS, { recursive: true });
}, 120_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('live guidance on the hosted page, in the applicant\'s language, from a real camera stream', () => {
  it('too dark (pt)', async () => {
    const g = await guidanceShown(camera('dark', 'scale=480:480,eq=brightness=-0.4:contrast=0.6'), 'pt');
    expect(g.key, g.log.slice(-3).join('\n')).toBe('guideDark');
    expect(g.text).toBe(STRINGS.pt.guideDark);
  }, 120_000);

  it('backlit: bright window behind a darker face (es)', async () => {
    const g = await guidanceShown(camera('backlit', 'scale=300:300,eq=brightness=-0.25,pad=480:480:90:90:white'), 'es');
    expect(g.key, g.log.slice(-3).join('\n')).toBe('guideBacklit');
    expect(g.text).toBe(STRINGS.es.guideBacklit);
  }, 120_000);

  it('face too small: far from the camera (en)', async () => {
    const g = await guidanceShown(camera('far', 'scale=90:90,pad=480:480:195:195:gray'), 'en');
    expect(g.key, g.log.slice(-3).join('\n')).toBe('guideFar');
    expect(g.text).toBe(STRINGS.en.guideFar);
  }, 120_000);

  it('face at the edge of the picture: move to the middle (es)', async () => {
    const g = await guidanceShown(camera('offcentre', 'scale=220:220,pad=480:480:0:130:gray'), 'es', path.join(SHOTS, 'hosted-guidance-centre.png'));
    expect(g.key, g.log.slice(-3).join('\n')).toBe('guideCentre');
    expect(g.text).toBe(STRINGS.es.guideCentre);
    expect(g.violations.filter(isSerious)).toEqual([]);
  }, 120_000);

  it('a well-lit, well-framed face gets the go-ahead (en)', async () => {
    const g = await guidanceShown(camera('good', 'scale=480:480'), 'en');
    expect(g.key, g.log.slice(-3).join('\n')).toBe('ok');
    expect(g.text).toBe(STRINGS.en.guideOk);
  }, 120_000);
});
