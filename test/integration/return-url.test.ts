import { describe, expect, it } from 'vitest';
import { api, countRows, createVerification, sampleJpeg, signup, sql, submit, tokenOf, upload } from '../helpers.js';

/** `return_url`: where the hosted page sends the applicant after submit (the browser side is test/e2e/hosted-capture.test.ts). */
describe('return_url', () => {
  it('is stored, shown on the Case, and rendered into the capture page; a page opened after submit offers "Continue"', async () => {
    const { key } = await signup();
    const returnUrl = 'https://shop.example.com/kyc/done?order=A-17&x="<b>"';
    const v = await createVerification(key, { return_url: returnUrl, locale: 'en' });
    expect((await api('GET', `/v1/verifications/${v.id}`, { key })).body.return_url).toBe(returnUrl);
    const page = await fetch(v.onboarding_url);
    const htmlText = await page.text();
    // Escaped as an attribute: the quotes and angle brackets of the URL cannot break out of it.
    expect(htmlText).toContain('data-return-url="https://shop.example.com/kyc/done?order=A-17&amp;x=&quot;&lt;b&gt;&quot;"');
    expect(htmlText).not.toContain('<b>');

    const token = tokenOf(v.onboarding_url);
    expect((await upload(token, 'document_front', await sampleJpeg())).status).toBe(201);
    expect((await submit(token, { country: 'MEX', type: 'passport' })).status).toBe(202);
    const after = await (await fetch(v.onboarding_url)).text();
    expect(after).toContain('This verification was already submitted.');
    expect(after).toContain('<a class="continue" href="https://shop.example.com/kyc/done?order=A-17&amp;x=&quot;&lt;b&gt;&quot;">Continue</a>');
    // Without a return_url the page says the page can be closed, and offers no link.
    const plain = await createVerification(key, { locale: 'en' });
    const plainText = await (await fetch(plain.onboarding_url)).text();
    expect(plainText).not.toContain('data-return-url');
  });

  it('is refused unless it is an http(s) URL of at most 2000 characters, naming the field, creating nothing', async () => {
    const { projectId, key } = await signup();
    for (const bad of ['javascript:alert(1)', 'ftp://files.example.com/x', 'not a url', 'data:text/html,hi', `https://example.com/${'a'.repeat(2000)}`]) {
      const r = await api('POST', '/v1/verifications', { key, json: { accepted_documents: [{ country: 'MEX', types: ['passport'] }], return_url: bad } });
      expect(r.status, bad.slice(0, 30)).toBe(400);
      expect(r.body.errors[0].field).toBe('return_url');
    }
    expect(await countRows('verifications', 'project_id = $1', [projectId])).toBe(0);
  });

  it('Flow intake takes it too, and erasure removes it with the other PII', async () => {
    const { key } = await signup();
    const r = await api('POST', '/v1/flows/sample-kyc/intake', {
      key,
      json: { payload: { full_name: 'Ana Luisa Prueba Ejemplo', date_of_birth: '1990-03-15' }, verifiee: { email: 'ana@example.com' }, return_url: 'http://localhost:8080/after-kyc?customer=99' },
    });
    expect(r.status).toBe(201);
    const [row] = await sql<{ return_url: string }>('select return_url from verifications where id = $1', [r.body.id]);
    expect(row!.return_url).toBe('http://localhost:8080/after-kyc?customer=99');
    const erased = await api('DELETE', `/v1/verifications/${r.body.id}`, { key });
    expect(erased.body.erased.fields).toContain('return_url');
    const [gone] = await sql<{ return_url: string | null }>('select return_url from verifications where id = $1', [r.body.id]);
    expect(gone!.return_url).toBeNull();
  });
});
