import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { stack } from '../helpers.js';

describe('API docs page under the CSP', () => {
  it('renders Swagger UI in Chromium with no Content-Security-Policy violation', async () => {
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage();
      const lines: string[] = [];
      page.on('console', (m) => lines.push(`${m.type()}: ${m.text()}`));
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => console.error(`csp-violation ${e.violatedDirective} ${e.blockedURI}`));
      });
      const res = await page.goto(`${stack().apiUrl}/v1/docs/`);
      expect(res!.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
      await page.getByText('Identity Verification Service API').first().waitFor({ timeout: 30_000 });
      expect(lines.filter((l) => /csp-violation|Content Security Policy/i.test(l))).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 90_000);
});
