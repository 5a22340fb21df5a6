import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, createApiKey, dashboardContext, isSerious, launchChromium, signInAsNewOwner, signInThroughLocalProvider } from '../browser.js';
import { uniqueEmail } from '../dashboard-helpers.js';
import { api as call, sql, stack } from '../helpers.js';

/**
 * The Build page in Debian's Chromium, signed in through the local OpenID provider: a Template is
 * composed with the forms generated from the primitives registry, a bad one is refused inline
 * (errors beside the fields, nothing saved), a draft is saved, listed, reopened and edited, the
 * hosted flow is previewed, the draft is activated as a Flow and intake on it answers 201.
 * axe-core: no serious or critical violation on any page.
 */
const SHOTS = process.env.BUILD_SHOTS ?? path.resolve('.data', 'screenshots', 'build');
let browser: Browser;
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

async function axe(page: Page, name: string): Promise<string[]> {
  return (await axeViolations(page, path.join(SHOTS, `${name}.png`))).filter(isSerious).map((x) => `${x.impact} ${x.id}: ${x.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
const field = (page: Page, name: string) => page.locator(`[name="${name}"]`);

describe('Build page in a real browser', () => {
  it('composes a Template from the registry forms, refuses a bad one inline, saves/reopens/edits a draft, previews it, activates it as a Flow that runs intake', async () => {
    const api = stack().apiUrl;
    const owner = await signInAsNewOwner(browser, api, uniqueEmail('build-owner'));
    const { context, page, projectId, csrf } = owner;
    const key = await createApiKey(owner, api);
    const drafts = async () => (await sql<{ n: number }>('select count(*)::int as n from template_drafts where project_id = $1', [projectId]))[0]!.n;
    const bad: Record<string, string[]> = {};

    await page.getByRole('link', { name: 'Build', exact: true }).click();
    await page.getByRole('heading', { name: 'Build', level: 1 }).waitFor();
    await expect(page.getByText('No drafts yet.').count()).resolves.toBe(1);
    bad['13-build'] = await axe(page, '13-build');

    // Compose through the generated forms: every piece of the registry is there.
    for (const legend of ['Document capture', 'Selfie liveness', 'Record match', 'Intake shape']) await expect(page.locator('fieldset.piece > legend', { hasText: legend }).count()).resolves.toBe(1);
    await page.getByLabel('Draft name').fill('Mozambique passport');
    await field(page, 'document_capture.accepted_documents.0.country').fill('*');
    await field(page, 'document_capture.accepted_documents.0.types[passport]').check();
    await field(page, 'document_capture.accepted_documents.0.types[national_id]').check();
    await field(page, 'selfie_liveness.step_count').fill('2');
    await field(page, 'selfie_liveness.steps[turn_left]').check();
    await field(page, 'selfie_liveness.steps[blink]').check();
    await field(page, 'record_match.__include').check();
    await page.locator('[name="record_match.mode"][value="rules"]').check();
    await field(page, 'record_match.rules.0.collected').selectOption('date_of_birth');
    await field(page, 'record_match.rules.0.claimed_key').fill('dob');
    await field(page, 'record_match.rules.0.operator').selectOption('equals');
    await field(page, 'intake_shape.fields.0.key').fill('Full Name');
    await field(page, 'intake_shape.fields.0.type').selectOption('string');
    await field(page, 'intake_shape.fields.0.required').check();
    await field(page, 'intake_shape.fields.0.prefill').selectOption('full_name');
    await page.getByRole('button', { name: 'Save draft' }).click();

    // Refused inline: the errors sit beside their fields, the summary names them; nothing saved.
    await page.getByRole('alert').waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('intake_shape.fields.0.key');
    await expect(field(page, 'intake_shape.fields.0.key').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.locator('#f-intake_shape-fields-0-key-err').textContent()).resolves.toMatch(/pattern|Invalid/i);
    await expect(field(page, 'intake_shape.fields.0.key').inputValue()).resolves.toBe('Full Name'); // what was typed stays
    await expect(field(page, 'record_match.rules.0.claimed_key').inputValue()).resolves.toBe('dob');
    bad['14-build-invalid'] = await axe(page, '14-build-invalid');
    expect(await drafts()).toBe(0);

    // The key fixed, the wildcard country is the next refusal (the explicit-country rule), still inline.
    await field(page, 'intake_shape.fields.0.key').fill('full_name');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.locator('#f-document_capture-accepted_documents-0-country-err').waitFor();
    await expect(page.locator('#f-document_capture-accepted_documents-0-country-err').textContent()).resolves.toContain('wildcards');
    expect(await drafts()).toBe(0);

    // "Add a row" works without script: another blank row, nothing saved.
    await page.locator('fieldset#f-intake_shape-fields').getByRole('button', { name: 'Add a row' }).click();
    await field(page, 'intake_shape.fields.2.key').waitFor();
    expect(await drafts()).toBe(0);
    await field(page, 'document_capture.accepted_documents.0.country').fill('MZ');
    await field(page, 'intake_shape.fields.1.key').fill('dob');
    await field(page, 'intake_shape.fields.1.type').selectOption('date');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.waitForURL(/\/build\/drafts\/tpd_[0-9A-Z]{26}\?saved=1$/);
    await page.getByRole('status').filter({ hasText: 'Draft saved.' }).waitFor();
    const draftId = /tpd_[0-9A-Z]{26}/.exec(page.url())![0];
    const stored = (await sql<{ definition: { pieces: { type: string; settings: Record<string, unknown> }[] } }>('select definition from template_drafts where id = $1', [draftId]))[0]!.definition;
    expect(stored.pieces.map((p) => p.type)).toEqual(['document_capture', 'selfie_liveness', 'record_match', 'intake_shape']);
    expect(stored.pieces[0]!.settings).toEqual({ accepted_documents: [{ country: 'MOZ', types: ['passport', 'national_id'] }] });
    expect(stored.pieces[1]!.settings).toEqual({ step_count: 2, steps: ['turn_left', 'blink'] });
    expect(stored.pieces[2]!.settings).toEqual({ mode: 'rules', rules: [{ collected: 'date_of_birth', claimed_key: 'dob', operator: 'equals' }] });
    expect(stored.pieces[3]!.settings).toEqual({ fields: [{ key: 'full_name', type: 'string', required: true, prefill: 'full_name' }, { key: 'dob', type: 'date', required: false }] });
    bad['15-build-draft'] = await axe(page, '15-build-draft');

    // Listed, reopened, edited: record match back to simple_match, dob required.
    await page.getByRole('link', { name: 'All drafts' }).click();
    await page.getByRole('link', { name: 'Mozambique passport', exact: true }).click();
    await page.waitForURL(new RegExp(`/build/drafts/${draftId}$`));
    await expect(field(page, 'document_capture.accepted_documents.0.country').inputValue()).resolves.toBe('MOZ');
    await page.locator('[name="record_match.mode"][value="simple_match"]').check();
    await field(page, 'intake_shape.fields.1.required').check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(/\?saved=1$/);
    const edited = (await sql<{ definition: { pieces: { type: string; settings: Record<string, unknown> }[] } }>('select definition from template_drafts where id = $1', [draftId]))[0]!.definition;
    expect(edited.pieces[2]!.settings).toEqual({ mode: 'simple_match' });
    expect((edited.pieces[3]!.settings.fields as { required: boolean }[])[1]!.required).toBe(true);
    expect(await drafts()).toBe(1);

    // Preview: the steps, the intake body and the hosted page itself, for this definition.
    await page.getByRole('link', { name: 'Preview' }).first().click();
    await page.getByRole('heading', { name: 'Preview: Mozambique passport' }).waitFor();
    const hosted = page.frameLocator('iframe[title^="The hosted page"]');
    await hosted.getByRole('heading', { name: 'Verify your identity' }).waitFor();
    await expect(hosted.locator('select[name=document] option').allTextContents()).resolves.toEqual(['MOZ — Passport', 'MOZ — National ID card']);
    await expect(hosted.locator('script').count()).resolves.toBe(0);
    await expect(page.locator('pre').textContent()).resolves.toContain('"dob": "1990-01-31"');
    bad['16-build-preview'] = await axe(page, '16-build-preview');

    // Activate from the page: a taken slug is refused inline (no Flow, no Template); a new one is v1.
    const templatesBefore = (await sql<{ n: number }>('select count(*)::int as n from templates where project_id = $1', [projectId]))[0]!.n;
    await page.getByLabel('Slug').fill('sample-kyc');
    await page.getByRole('button', { name: 'Activate as Flow' }).click();
    await page.getByRole('alert').waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('already exists');
    await expect(page.getByLabel('Slug').getAttribute('aria-invalid')).resolves.toBe('true');
    bad['17-build-activate-refused'] = await axe(page, '17-build-activate-refused');
    expect((await sql<{ n: number }>('select count(*)::int as n from templates where project_id = $1', [projectId]))[0]!.n).toBe(templatesBefore);
    await page.getByLabel('Slug').fill('mz-passport');
    await page.getByRole('button', { name: 'Activate as Flow' }).click();
    await page.waitForURL(/\/flows\?published=mz-passport&v=1#fl-flw_[0-9A-Z]{26}$/);
    await page.getByRole('heading', { name: /Mozambique passport/ }).waitFor();
    bad['18-build-activated-flow'] = await axe(page, '18-build-activated-flow');

    // Intake on the new Flow: its shape is the draft's (dob is required now), and it runs.
    const missing = await call('POST', '/v1/flows/mz-passport/intake', { key, json: { payload: { full_name: 'Ana Prueba' }, verifiee: { email: 'a@example.com' } } });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field)).toEqual(['payload.dob']);
    const run = await call('POST', '/v1/flows/mz-passport/intake', { key, json: { payload: { full_name: 'Ana Prueba', dob: '1990-03-15' }, verifiee: { email: 'a@example.com' } } });
    expect(run.status).toBe(201);
    expect(run.body).toMatchObject({ flow_slug: 'mz-passport', flow_version_ref: 1, status: 'collecting' });
    expect((await sql('select accepted_documents from verifications where id = $1', [run.body.id]))[0]).toEqual({ accepted_documents: [{ country: 'MOZ', types: ['passport', 'national_id'] }] });

    // A compliance member sees the draft read-only (the composer disabled, no activation).
    const complianceEmail = uniqueEmail('build-compliance');
    expect((await context.request.post(`${api}/v1/team/invitations`, { data: { email: complianceEmail, role: 'compliance' }, headers: { 'x-csrf-token': csrf } })).status()).toBe(201);
    const other = await dashboardContext(browser);
    const look = await other.newPage();
    await look.goto(`${api}/dashboard/projects/${projectId}/build/drafts/${draftId}`);
    await signInThroughLocalProvider(look, complianceEmail);
    await look.waitForURL(new RegExp(`/build/drafts/${draftId}$`));
    await look.getByRole('note').filter({ hasText: 'flows:manage' }).waitFor();
    await expect(look.locator('[name="document_capture.accepted_documents.0.country"]').isDisabled()).resolves.toBe(true);
    await expect(look.getByRole('button', { name: 'Activate as Flow' }).count()).resolves.toBe(0);
    bad['20-build-readonly'] = await axe(look, '20-build-readonly');
    await other.close();

    // Spanish and Portuguese pages; then delete the draft.
    await page.goto(`${api}/dashboard/projects/${projectId}/build/drafts/${draftId}?lang=pt`);
    await page.getByRole('heading', { name: 'Rascunho: Mozambique passport' }).waitFor();
    bad['19-build-draft-pt'] = await axe(page, '19-build-draft-pt');
    await page.goto(`${api}/dashboard/projects/${projectId}/build?lang=es`);
    await page.getByRole('heading', { name: 'Construir', level: 1 }).waitFor();
    await page.goto(`${api}/dashboard/projects/${projectId}/build/drafts/${draftId}?lang=en`);
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Delete draft' }).click();
    await page.waitForURL(/\/build\?deleted=1$/);
    await page.getByText('No drafts yet.').waitFor();
    expect(await drafts()).toBe(0);
    // The Flow made from it stays.
    expect((await call('POST', '/v1/flows/mz-passport/intake', { key, json: { payload: { full_name: 'Ana Prueba', dob: '1990-03-15' }, verifiee: { email: 'a@example.com' } } })).status).toBe(201);
    await context.close();
    expect(Object.fromEntries(Object.entries(bad).filter(([, v]) => v.length))).toEqual({});
  }, 300_000);
});
