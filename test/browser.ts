import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (CHROMIUM_PATH overrides), headless, for the dashboard's end-to-end suites. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface AxeViolation { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** Saves a full-page screenshot to `shot`, then runs axe-core in the page: every violation. */
export async function axeViolations(page: Page, shot: string): Promise<AxeViolation[]> {
  await page.screenshot({ path: shot, fullPage: true });
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const r = await (window as unknown as { axe: { run(ctx: unknown, o: unknown): Promise<{ violations: AxeViolation[] }> } }).axe.run(document, { iframes: false, resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
}

export const isSerious = (v: AxeViolation): boolean => v.impact === 'serious' || v.impact === 'critical';

/** A desktop context for the dashboard (bypassCSP lets the axe script in; the pages' CSP is asserted elsewhere). */
export function dashboardContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true, locale: 'en-GB' });
}

/** From the sign-in page: the provider's button → the local OpenID provider's login form → submit. */
export async function signInThroughLocalProvider(page: Page, email: string, provider: 'Google' | 'GitHub' = 'Google'): Promise<void> {
  await page.getByRole('link', { name: `Sign in with ${provider}` }).click();
  await page.locator('input[name=login]').fill(email);
  await page.locator('input[name=password]').fill('any');
  await page.locator('button[type=submit]').click();
}

export interface SignedIn { context: BrowserContext; page: Page; projectId: string; csrf: string }

/** A new user signs up through the local provider and lands on their first project's API keys page. */
export async function signInAsNewOwner(browser: Browser, api: string, email: string): Promise<SignedIn> {
  const context = await dashboardContext(browser);
  const page = await context.newPage();
  await page.goto(`${api}/dashboard`);
  await signInThroughLocalProvider(page, email);
  await page.waitForURL(/\/dashboard\/projects\/prj_[0-9A-Z]{26}\/keys$/);
  const projectId = /prj_[0-9A-Z]{26}/.exec(page.url())![0]!;
  const csrf = await page.locator('input[name=_csrf]').first().inputValue();
  return { context, page, projectId, csrf };
}

/** A project API key created through the dashboard's session (CSRF-protected), for the API calls of a suite. */
export async function createApiKey(s: SignedIn, api: string): Promise<string> {
  const res = await s.context.request.post(`${api}/v1/projects/${s.projectId}/keys`, { data: { name: 'e2e' }, headers: { 'x-csrf-token': s.csrf } });
  return (await res.json()).api_key as string;
}
