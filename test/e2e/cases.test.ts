import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { axeViolations, dashboardContext, isSerious, launchChromium, signInThroughLocalProvider, type AxeViolation } from '../browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../sdk/webhook-verify.js';
import { uniqueEmail } from '../dashboard-helpers.js';
import { genuinePassportForTests, livenessFramesForTests } from '../fixtures.js';
import { api as call, createVerification, sampleJpeg, sql, stack, submit, tokenOf, upload, waitFor, waitForStatus, webhookReceiver } from '../helpers.js';

/**
 * Verifications and Case Management in Debian's Chromium, signed in through the local OpenID
 * provider as owner, compliance and developer: the list with filters and search, a completed
 * Case's evidence, the review queue, a disposition recorded by compliance (allowed) and refused to
 * a developer, the signed `verification.reviewed` webhook, erasure with its receipt. axe-core on
 * every page: no serious or critical violation. Screenshots in CASES_SHOTS.
 */
const SHOTS = process.env.CASES_SHOTS ?? path.resolve('.data', 'screenshots', 'cases');
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

const bad: Record<string, AxeViolation[]> = {};
async function visit(page: Page, name: string): Promise<void> {
  const serious = (await axeViolations(page, path.join(SHOTS, `${name}.png`))).filter(isSerious);
  if (serious.length) bad[name] = serious;
}

async function signedIn(email: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await dashboardContext(browser);
  const page = await context.newPage();
  page.on('dialog', (d) => void d.accept());
  await page.goto(`${stack().apiUrl}/dashboard`);
  await signInThroughLocalProvider(page, email);
  await page.waitForURL(/\/dashboard\/projects\/prj_[0-9A-Z]{26}\/keys$/);
  return { context, page };
}
const csrfOf = (page: Page) => page.locator('input[name=_csrf]').first().inputValue();

describe('Verifications and Case Management in a real browser', () => {
  it('lists, filters, shows evidence, queues, records a disposition (compliance yes, developer no), delivers verification.reviewed, erases', async () => {
    const api = stack().apiUrl;
    const owner = await signedIn(uniqueEmail('cases-owner'));
    const projectId = /prj_[0-9A-Z]{26}/.exec(owner.page.url())![0];
    const csrf = await csrfOf(owner.page);
    const post = (ctx: BrowserContext, p: string, data: unknown, token: string, method = 'POST') => ctx.request.fetch(`${api}${p}`, { method, data: data as Record<string, unknown>, headers: { 'x-csrf-token': token } });

    const key = (await (await post(owner.context, `/v1/projects/${projectId}/keys`, { name: 'e2e' }, csrf)).json()).api_key as string;
    const receiver = await webhookReceiver(() => 200);
    try {
      const secret = (await (await post(owner.context, `/v1/projects/${projectId}/webhook`, { url: receiver.url }, csrf, 'PUT')).json()).secret as string;
      const emails = { compliance: uniqueEmail('cases-compliance'), developer: uniqueEmail('cases-developer') };
      for (const [role, email] of Object.entries(emails)) expect((await post(owner.context, '/v1/team/invitations', { email, role }, csrf)).status()).toBe(201);

      // A Case with real evidence: a photographed passport, a live capture for its challenge, and a
      // divergent reference record (record match); and a plain one.
      const doc = await genuinePassportForTests(11);
      const payload = { full_name: `${doc.truth.given_names} ${doc.truth.surnames}`, date_of_birth: doc.truth.date_of_birth, id_number: doc.truth.document_number };
      const intake = await call('POST', '/v1/flows/sample-kyc/intake', { key, json: { payload, claimed: { ...payload, date_of_birth: '1970-01-01' }, verifiee: { email: 'applicant@example.com' } } });
      expect(intake.status).toBe(201);
      const rich = intake.body.id as string;
      const token = tokenOf(intake.body.onboarding_url);
      expect((await upload(token, 'document_front', doc.image)).status).toBe(201);
      const challenge = (await call('POST', `/o/${token}/challenge`)).body;
      for (const f of await livenessFramesForTests(challenge)) expect((await upload(token, 'liveness_frame', f.image, 'f.jpg', f.meta)).status).toBe(201);
      expect((await submit(token, { country: 'MOZ', type: 'passport' })).status).toBe(202);
      const plain = await createVerification(key, { reference: 'crm-0001' });
      const ptoken = tokenOf(plain.onboarding_url);
      expect((await upload(ptoken, 'document_front', await sampleJpeg())).status).toBe(201);
      expect((await submit(ptoken)).status).toBe(202);
      const richDone = await waitForStatus(key, rich, ['completed', 'failed'], 300_000);
      await waitForStatus(key, plain.id, ['completed', 'failed'], 300_000);
      expect(richDone.status).toBe('completed');

      // The list: both Cases, the advisory notice, filters, search by id and by reference.
      const page = owner.page;
      await page.goto(`${api}/dashboard/projects/${projectId}/verifications`);
      await page.getByRole('heading', { name: 'Verifications' }).waitFor();
      await expect(page.getByText('not a determination of identity').count()).resolves.toBe(1);
      await expect(page.locator('table.cases tbody tr').count()).resolves.toBe(2);
      await visit(page, '01-verifications');
      await page.getByLabel('Search by id or reference').fill('crm-0001');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.waitForURL(/search=crm-0001/);
      await expect(page.locator('table.cases tbody tr').count()).resolves.toBe(1);
      await expect(page.locator('table.cases').getByText(plain.id).count()).resolves.toBe(1);
      await page.goto(`${api}/dashboard/projects/${projectId}/verifications?search=${rich}`);
      await expect(page.locator('table.cases tbody tr').count()).resolves.toBe(1);
      await page.goto(`${api}/dashboard/projects/${projectId}/verifications?assessment=${richDone.assessment}&status=completed&flow_version_ref=1`);
      await expect(page.locator('table.cases').getByText(rich).count()).resolves.toBe(1);
      await visit(page, '02-verifications-filtered');
      const badFilter = await page.goto(`${api}/dashboard/projects/${projectId}/verifications?status=approved`);
      expect(badFilter!.status()).toBe(400);
      await page.goto(`${api}/dashboard/projects/${projectId}/verifications?lang=pt`);
      await page.getByRole('heading', { name: 'Verificações' }).waitFor();
      await visit(page, '03-verifications-pt');
      await page.goto(`${api}/dashboard/projects/${projectId}/verifications?lang=en`);

      // The detail: every check, captures served with no-store to this owner, stamps, deliveries.
      await page.goto(`${api}/dashboard/projects/${projectId}/verifications/${rich}`);
      for (const h of ['document_ocr', 'liveness', 'face_match', 'record_match', 'authenticity']) await page.locator(`#ck-${h}`).waitFor();
      await expect(page.getByText(richDone.engine_profile).count()).resolves.toBeGreaterThan(0);
      await expect(page.getByRole('link', { name: /Temporal UI/ }).getAttribute('href')).resolves.toContain(`case-${rich}`);
      await expect(page.getByRole('cell', { name: 'verification.completed' }).count()).resolves.toBeGreaterThan(0);
      const imgs = page.locator('img.capture');
      expect(await imgs.count()).toBeGreaterThan(1);
      await page.waitForFunction(() => Array.from(document.querySelectorAll('img.capture')).every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0));
      const src = (await imgs.first().getAttribute('src'))!;
      const image = await owner.context.request.get(`${api}${src}`);
      expect(image.status()).toBe(200);
      expect(image.headers()['cache-control']).toBe('no-store');
      expect(image.headers()['content-type']).toMatch(/^image\//);
      await visit(page, '04-verification-detail');

      // The queue, as compliance: counts, the Case, keyboard to the disposition form.
      const compliance = await signedIn(emails.compliance);
      const cpage = compliance.page;
      await cpage.goto(`${api}/dashboard/projects/${projectId}/review`);
      await cpage.getByRole('heading', { name: 'Case Management' }).waitFor();
      await visit(cpage, '05-review-queue');
      await cpage.locator('table.cases a').first().click();
      await cpage.locator('#disposition').waitFor();
      await visit(cpage, '06-review-case');
      await cpage.goto(`${api}/dashboard/projects/${projectId}/verifications/${rich}`);
      await cpage.keyboard.press('d');
      await expect(cpage.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).resolves.toBe('state');
      await cpage.getByLabel('Customer concern recorded').check();
      await cpage.getByLabel('Note').fill('Asked the customer for a second document.');
      await cpage.getByRole('button', { name: 'Record disposition' }).click();
      await cpage.waitForURL(/saved=1$/);
      await cpage.goto(`${api}/dashboard/projects/${projectId}/verifications/${rich}`);
      await expect(cpage.getByRole('cell', { name: 'Asked the customer for a second document.' }).count()).resolves.toBe(1);

      const hook = await waitFor(async () => receiver.received.find((h) => h.headers['x-service-event'] === 'verification.reviewed'), 60_000);
      expect(verifyWebhook({ secret, body: hook.raw, timestamp: hook.headers['x-service-timestamp'] as string, signature: hook.headers['x-service-signature'] as string })).toEqual({ ok: true });
      const body = JSON.parse(hook.raw.toString('utf8'));
      expect(body).toMatchObject({ event: 'verification.reviewed', id: rich, customer_disposition: 'customer_concern_recorded', review: { state: 'customer_concern_recorded' }, assessment: richDone.assessment, confidence: richDone.confidence });
      const after = (await call('GET', `/v1/verifications/${rich}`, { key })).body;
      expect([after.assessment, after.confidence, after.summary_reasons]).toEqual([richDone.assessment, richDone.confidence, richDone.summary_reasons]);

      // A developer sees the Case but no evidence, no images, no form; the write is refused.
      const developer = await signedIn(emails.developer);
      await developer.page.goto(`${api}/dashboard/projects/${projectId}/verifications/${rich}`);
      await developer.page.locator('#ck-document_ocr').waitFor();
      await expect(developer.page.locator('#disposition').count()).resolves.toBe(0);
      await expect(developer.page.locator('img.capture').count()).resolves.toBe(0);
      await expect(developer.page.getByText('Asked the customer').count()).resolves.toBe(0);
      await visit(developer.page, '07-detail-as-developer');
      expect((await developer.context.request.get(`${api}${src}`)).status()).toBe(403);
      const devCsrf = await csrfOf(developer.page);
      expect((await post(developer.context, `/v1/verifications/${rich}/disposition`, { state: 'no_customer_concerns_recorded' }, devCsrf)).status()).toBe(403);
      const form = await developer.context.request.post(`${api}/dashboard/projects/${projectId}/verifications/${rich}/disposition`, { form: { _csrf: devCsrf, state: 'no_customer_concerns_recorded' }, maxRedirects: 0 });
      expect(form.status()).toBe(403);
      expect((await sql('select count(*)::int as n from case_dispositions where verification_id = $1', [rich]))[0]).toEqual({ n: 1 });

      // Erase from the page, as compliance: the confirmation, then the receipt.
      await cpage.goto(`${api}/dashboard/projects/${projectId}/verifications/${rich}`);
      await cpage.getByLabel(/permanently erases/).check();
      await cpage.getByRole('button', { name: 'Erase', exact: true }).click();
      await cpage.getByRole('heading', { name: 'Erasure receipt' }).waitFor();
      await expect(cpage.locator('.once').getByText('disposition_notes').count()).resolves.toBe(1);
      await visit(cpage, '08-erased-receipt');
      expect((await owner.context.request.get(`${api}${src}`)).status()).toBe(404);
      expect((await sql('select note from case_dispositions where verification_id = $1', [rich]))[0]).toEqual({ note: null });
      await compliance.context.close();
      await developer.context.close();
      await owner.context.close();
    } finally {
      await receiver.close();
    }
    expect(bad).toEqual({});
  }, 600_000);
});
