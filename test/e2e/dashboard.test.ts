import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { axeViolations, dashboardContext, isSerious, launchChromium, signInThroughLocalProvider, type AxeViolation } from '../browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../dashboard-helpers.js';
import { createVerification, sampleJpeg, stack, submit, tokenOf, upload, waitFor, webhookReceiver } from '../helpers.js';

/**
 * Every dashboard page in Debian's Chromium, after a real sign-in through the local OpenID
 * provider (the Google stand-in). axe-core runs on each page: no serious or critical violation.
 * Screenshots go to DASHBOARD_SHOTS (default .data/screenshots/dashboard).
 */
const SHOTS = process.env.DASHBOARD_SHOTS ?? path.resolve('.data', 'screenshots', 'dashboard');
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

const report: Record<string, string[]> = {};

/** axe-core in the page; returns the serious and critical violations, and saves a screenshot. */
async function check(page: Page, name: string): Promise<AxeViolation[]> {
  const violations = await axeViolations(page, path.join(SHOTS, `${name}.png`));
  report[name] = violations.map((v) => `${v.impact} ${v.id}`);
  return violations.filter(isSerious);
}

describe('dashboard in a real browser', () => {
  it('signs in through the local OpenID provider and every page passes axe (no serious/critical) in en, es and pt', async () => {
    const api = stack().apiUrl;
    // bypassCSP lets the axe script in; the pages' own CSP is asserted on the responses below.
    const context = await dashboardContext(browser);
    const page = await context.newPage();
    page.on('dialog', (d) => void d.accept());
    const bad: Record<string, AxeViolation[]> = {};
    const visit = async (name: string) => {
      const v = await check(page, name);
      if (v.length) bad[name] = v;
    };

    const first = await page.goto(`${api}/dashboard`);
    expect(first!.url()).toContain('/dashboard/sign-in');
    expect(first!.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await visit('01-sign-in');

    // The real sign-in: our button → the local OpenID provider's login form → back with a session.
    const email = uniqueEmail('e2e');
    await signInThroughLocalProvider(page, email);
    await page.waitForURL(/\/dashboard\/projects\/prj_[0-9A-Z]{26}\/keys$/);
    const projectId = /prj_[0-9A-Z]{26}/.exec(page.url())![0];
    await expect(page.getByText(email).isVisible()).resolves.toBe(true);
    const cookies = await context.cookies(api);
    const session = cookies.find((c) => c.name === 'ivs_session')!;
    expect(session.httpOnly).toBe(true);
    expect(session.sameSite).toBe('Lax');
    await visit('02-keys');

    // API keys: the raw value once, then revoke.
    await page.getByLabel('Key name').fill('ci server');
    await page.getByRole('button', { name: 'Create key' }).click();
    const raw = (await page.locator('.once code').textContent())!;
    expect(raw).toMatch(/^ivs_test_[A-Za-z0-9_-]{43}$/);
    await visit('03-keys-created');
    await page.goto(`${api}/dashboard/projects/${projectId}/keys`);
    expect(await page.content()).not.toContain(raw);
    await page.getByRole('button', { name: /Revoke default/ }).click();
    await page.waitForURL(/\/keys$/);
    await expect(page.getByRole('cell', { name: 'revoked' }).count()).resolves.toBe(1);

    // Webhook: URL, PII opt-in, the secret once, and the delivery log.
    await page.goto(`${api}/dashboard/projects/${projectId}/webhook`);
    await page.getByLabel('Webhook URL').fill('https://example.test/hooks/ivs');
    await page.getByLabel(/Include the full result/).check();
    await page.getByRole('button', { name: 'Save' }).click();
    const secret = (await page.locator('.once code').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await visit('04-webhook-secret');
    await page.getByLabel('Regenerate the signing secret').check();
    await page.getByRole('button', { name: 'Save' }).click();
    const secret2 = (await page.locator('.once code').textContent())!;
    expect(secret2).toMatch(/^whsec_/);
    expect(secret2).not.toBe(secret);
    // A real Case delivered to a local receiver that fails once: the log shows both attempts.
    const receiver = await webhookReceiver((n) => (n === 1 ? 503 : 200));
    try {
      await page.getByLabel('Webhook URL').fill(receiver.url);
      await page.getByLabel(/Include the full result/).uncheck();
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(/webhook\?saved=1$/);
      const v = await createVerification(raw);
      const token = tokenOf(v.onboarding_url);
      expect((await upload(token, 'document_front', await sampleJpeg())).status).toBe(201);
      expect((await submit(token)).status).toBe(202);
      await waitFor(async () => receiver.received.length >= 2, 180_000, 500);
    } finally {
      await receiver.close();
    }
    await page.goto(`${api}/dashboard/projects/${projectId}/webhook`);
    await expect(page.getByRole('cell', { name: 'HTTP 503' }).count()).resolves.toBe(1);
    await expect(page.getByRole('cell', { name: 'HTTP 200' }).count()).resolves.toBe(1);
    await visit('05-webhook');

    // Branding with the live preview.
    await page.goto(`${api}/dashboard/projects/${projectId}/branding`);
    await page.getByLabel('Display name').fill('Acme Verify');
    await page.locator('#br-primary_colour').fill('#aa2200');
    const frame = page.frameLocator('#branding-preview');
    await frame.getByText('Acme Verify').waitFor({ timeout: 10_000 });
    await visit('06-branding');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/branding\?saved=1$/);
    await expect(page.getByRole('status').textContent()).resolves.toContain('Saved');
    const preview = await context.newPage();
    await preview.goto(`${api}/dashboard/projects/${projectId}/branding/preview?name=Acme%20Verify&primary_colour=%23aa2200`);
    const pv = await check(preview, '07-branding-preview');
    if (pv.length) bad['07-branding-preview'] = pv;
    await preview.close();

    // Team: invite, then the list.
    await page.goto(`${api}/dashboard/team`);
    const colleague = uniqueEmail('colleague');
    await page.getByLabel('Email', { exact: true }).fill(colleague);
    await page.locator('#inv-role').selectOption('compliance');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.waitForURL(/\/dashboard\/team$/);
    await expect(page.getByRole('cell', { name: 'Compliance' }).count()).resolves.toBe(1);
    await visit('08-team');

    await page.goto(`${api}/dashboard/audit`);
    await expect(page.getByText('invitation.created').isVisible()).resolves.toBe(true);
    await visit('09-audit');

    await page.goto(`${api}/dashboard/orgs`);
    await visit('10-orgs');

    for (const lang of ['es', 'pt'] as const) {
      await page.goto(`${api}/dashboard/projects/${projectId}/keys?lang=${lang}`);
      expect(await page.getAttribute('html', 'lang')).toBe(lang);
      await visit(`11-keys-${lang}`);
      await page.goto(`${api}/dashboard/team`);
      expect(await page.getAttribute('html', 'lang')).toBe(lang); // remembered
      await visit(`12-team-${lang}`);
    }
    await page.goto(`${api}/dashboard/projects/${projectId}/webhook?lang=en`);

    // The 404 page for a project of another org.
    await page.goto(`${api}/dashboard/projects/prj_00000000000000000000000000/keys`);
    await visit('13-not-found');

    // Keyboard: the skip link is the first focus stop and leads to main.
    await page.goto(`${api}/dashboard/team`);
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Skip to content');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/dashboard\/sign-in$/);
    expect((await context.cookies(api)).find((c) => c.name === 'ivs_session')).toBeUndefined();

    // The invited colleague signs in (GitHub stand-in this time) and joins as compliance: read-only settings.
    await page.getByRole('link', { name: 'Sign in with GitHub' }).click();
    await page.getByLabel('Email').fill(colleague);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(new RegExp(`/dashboard/projects/${projectId}/keys$`));
    await expect(page.getByRole('button', { name: 'Create key' }).count()).resolves.toBe(0);
    await visit('14-keys-as-compliance');
    await page.goto(`${api}/dashboard/projects/${projectId}/branding`);
    await expect(page.getByRole('button', { name: 'Save' }).count()).resolves.toBe(0);
    await expect(page.getByLabel('Display name').isDisabled()).resolves.toBe(true);
    await visit('15-branding-as-compliance');
    await page.goto(`${api}/dashboard/team`);
    await expect(page.getByRole('button', { name: 'Invite' }).count()).resolves.toBe(0);
    await expect(page.getByRole('cell', { name: 'Compliance' }).count()).resolves.toBe(1);
    await visit('16-team-as-compliance');
    expect((await page.goto(`${api}/dashboard/audit`))!.status()).toBe(403);
    await visit('17-audit-forbidden');
    // A phone-sized viewport.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${api}/dashboard/projects/${projectId}/webhook`);
    await visit('18-webhook-phone');

    console.log(JSON.stringify(report, null, 1));
    expect(bad).toEqual({});
    await context.close();
  }, 300_000);
});
