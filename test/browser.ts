import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

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
