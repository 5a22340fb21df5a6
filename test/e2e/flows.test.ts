import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { axeViolations, createApiKey, isSerious, launchChromium, signInAsNewOwner } from '../browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../dashboard-helpers.js';
import { api as call, sql, stack } from '../helpers.js';

/**
 * The Flows page in Debian's Chromium, signed in through the local OpenID provider: version 1 of
 * the sample Flow, a bad definition refused inline (nothing published), version 2 published with
 * a readable diff, a Case started under v1 keeps v1 while new intake runs v2, deactivate → intake
 * 404. axe-core: no serious or critical violation.
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

async function axe(page: Page, name: string): Promise<string[]> {
  return (await axeViolations(page, path.join(SHOTS, `${name}.png`))).filter(isSerious).map((x) => `${x.impact} ${x.id}`);
}

describe('Flows page in a real browser', () => {
  it('shows versions, refuses a bad definition inline, publishes v2 with a diff (v1 Cases keep v1), deactivates', async () => {
    const api = stack().apiUrl;
    const owner = await signInAsNewOwner(browser, api, uniqueEmail('flows-owner'));
    const { context, page, projectId } = owner;
    const key = await createApiKey(owner, api);
    const intake = () => call('POST', '/v1/flows/sample-kyc/intake', { key, json: { payload: { full_name: 'Ana Prueba', date_of_birth: '1990-03-15' }, verifiee: { email: 'a@example.com' } } });
    const v1Case = await intake();
    expect(v1Case.status).toBe(201);
    expect(v1Case.body.flow_version_ref).toBe(1);

    const bad: Record<string, string[]> = {};
    await page.getByRole('link', { name: 'Flows', exact: true }).click();
    await page.getByRole('heading', { name: 'Flows' }).waitFor();
    await expect(page.getByText('Current version').locator('..').getByText('v1', { exact: true }).count()).resolves.toBe(1);
    bad['09-flows'] = await axe(page, '09-flows');

    // A wildcard country is refused, inline, naming the field; nothing is published.
    const textarea = page.getByLabel('Publish a new version');
    const def = JSON.parse(await textarea.inputValue());
    const wrong = structuredClone(def);
    wrong.pieces[0].settings.accepted_documents.push({ country: '*', types: ['passport'] });
    await textarea.fill(JSON.stringify(wrong, null, 2));
    await page.getByRole('button', { name: 'Publish version' }).click();
    await page.getByRole('alert').waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/accepted_documents/);
    bad['10-flows-invalid'] = await axe(page, '10-flows-invalid');
    expect((await sql<{ current_version: number }>("select current_version from flows where project_id = $1 and slug = 'sample-kyc'", [projectId]))[0]!.current_version).toBe(1);

    // Version 2: Portugal added, record match by rules. The diff names exactly those leaves.
    def.pieces[0].settings.accepted_documents.push({ country: 'PRT', types: ['passport'] });
    def.pieces[2].settings = { mode: 'rules', rules: [{ collected: 'date_of_birth', claimed_key: 'date_of_birth', operator: 'equals' }] };
    await page.getByLabel('Publish a new version').fill(JSON.stringify(def, null, 2));
    await page.getByRole('button', { name: 'Publish version' }).click();
    await page.waitForURL(/published=sample-kyc&v=2$/);
    await expect(page.getByRole('status').textContent()).resolves.toContain('sample-kyc v2');
    await expect(page.getByRole('cell', { name: 'pieces[2].settings.mode' }).count()).resolves.toBe(1);
    await expect(page.getByRole('cell', { name: 'pieces[0].settings.accepted_documents[2]' }).count()).resolves.toBe(1);
    bad['11-flows-v2'] = await axe(page, '11-flows-v2');

    // The running v1 Case keeps v1; new intake runs v2 under the same slug.
    expect((await call('GET', `/v1/verifications/${v1Case.body.id}`, { key })).body.flow_version_ref).toBe(1);
    const v2Case = await intake();
    expect(v2Case.body.flow_version_ref).toBe(2);

    // Deactivate: intake answers 404; activate again: it runs.
    await page.getByRole('button', { name: 'Deactivate sample-kyc' }).click();
    await page.getByRole('button', { name: 'Activate sample-kyc' }).waitFor();
    expect((await intake()).status).toBe(404);
    await page.getByRole('button', { name: 'Activate sample-kyc' }).click();
    await page.getByRole('button', { name: 'Deactivate sample-kyc' }).waitFor();
    expect((await intake()).status).toBe(201);

    // A new Flow from a Template definition: a taken slug is refused inline, a new one is v1.
    await page.getByLabel('Slug').fill('sample-kyc');
    await page.getByRole('button', { name: 'Activate as Flow' }).click();
    await page.getByRole('alert').waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('already exists');
    await page.getByLabel('Slug').fill('kyc-basic');
    await page.getByLabel('Name', { exact: true }).fill('Basic KYC');
    await page.getByRole('button', { name: 'Activate as Flow' }).click();
    await page.waitForURL(/published=kyc-basic&v=1$/);
    await page.getByRole('heading', { name: /Basic KYC/ }).waitFor();
    bad['12-flows-new'] = await axe(page, '12-flows-new');
    expect((await call('POST', '/v1/flows/kyc-basic/intake', { key, json: { payload: { full_name: 'Ana Prueba', date_of_birth: '1990-03-15' }, verifiee: { email: 'a@example.com' } } })).body.flow_version_ref).toBe(1);
    expect((await sql<{ n: number }>('select count(*)::int as n from templates where project_id = $1', [projectId]))[0]!.n).toBe(3); // sample, v2, kyc-basic: the refused one wrote nothing
    await context.close();
    expect(Object.fromEntries(Object.entries(bad).filter(([, v]) => v.length))).toEqual({});
  }, 300_000);
});
