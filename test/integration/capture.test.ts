import { describe, expect, it } from 'vitest';
import { api, createVerification, sampleJpeg, signup, stack, tokenOf, upload, waitFor, webhookReceiver } from '../helpers.js';

describe('hosted capture links', () => {
  it('serves the hosted page in the applicant language with the project branding, escaped', async () => {
    const { projectId, key } = await signup();
    await api('PUT', `/v1/projects/${projectId}/branding`, { key, json: { name: '<b>Banco</b>', primary_colour: '#0a7b3e' } });
    const v = await createVerification(key, { locale: 'pt' });
    const res = await fetch(v.onboarding_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain('lang="pt"');
    expect(html).toContain('Verifique a sua identidade');
    expect(html).toContain('&lt;b&gt;Banco&lt;/b&gt;');
    expect(html).not.toContain('<b>Banco</b>');
    expect(html).toContain('--primary:#0a7b3e');
  });

  it('short_url mints a fresh session token each time and redirects to the page', async () => {
    const { key } = await signup();
    const v = await createVerification(key);
    const r1 = await fetch(v.short_url, { redirect: 'manual' });
    const r2 = await fetch(v.short_url, { redirect: 'manual' });
    expect(r1.status).toBe(302);
    const t1 = tokenOf(r1.headers.get('location')!);
    const t2 = tokenOf(r2.headers.get('location')!);
    expect(t1).not.toBe(t2);
    expect(t1).not.toBe(tokenOf(v.onboarding_url));
    const s = await api('GET', `/o/${t1}/session`);
    expect(s.status).toBe(200);
    expect(s.body.case_id).toBe(v.id);
  });

  it('answers unknown tokens 401 and expired links 410, with a clear page and never another applicant’s data', async () => {
    const { key } = await signup();
    const other = await createVerification(key, { reference: 'someone-else' });
    const unknown = await fetch(`${stack().apiUrl}/o/${'x'.repeat(43)}`);
    expect(unknown.status).toBe(401);
    expect(await unknown.text()).toContain('This link is not valid');
    const api401 = await api('GET', `/o/${'y'.repeat(43)}/session`);
    expect(api401.status).toBe(401);
    expect(api401.body.code).toBe('unauthorized');
    expect(JSON.stringify(api401.body)).not.toContain(other.id);
    const forged = await upload('z'.repeat(43), 'document_front', await sampleJpeg());
    expect(forged.status).toBe(401);

    const short = await createVerification(key, { link_expires_in: 5 });
    await new Promise((r) => setTimeout(r, 5500));
    const expiredLink = await fetch(short.short_url, { redirect: 'manual' });
    expect(expiredLink.status).toBe(410);
    expect(await expiredLink.text()).toContain('This link has expired');
    const expiredSession = await api('GET', `/o/${tokenOf(short.onboarding_url)}/session`);
    expect(expiredSession.status).toBe(410);
  });

  it('an unsubmitted Case completes as assessment_incomplete / capture_expired when its link expires, and notifies', async () => {
    const receiver = await webhookReceiver(() => 200);
    try {
      const { projectId, key } = await signup();
      await api('PUT', `/v1/projects/${projectId}/webhook`, { key, json: { url: receiver.url } });
      const v = await createVerification(key, { link_expires_in: 5 });
      const done = await waitFor(async () => {
        const r = await api('GET', `/v1/verifications/${v.id}`, { key });
        return r.body.status === 'completed' ? r.body : null;
      }, 30_000);
      expect(done.assessment).toBe('assessment_incomplete');
      expect(done.summary_reasons).toEqual(['capture_expired']);
      await waitFor(async () => receiver.received.length >= 1, 15_000);
      expect(JSON.parse(receiver.received[0]!.raw.toString())).toMatchObject({ event: 'verification.completed', assessment: 'assessment_incomplete', summary_reasons: ['capture_expired'] });
    } finally {
      await receiver.close();
    }
  });
});
