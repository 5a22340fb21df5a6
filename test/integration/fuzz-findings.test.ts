import { describe, expect, it } from 'vitest';
import { api, createVerification, signup, sql, stack, tokenOf } from '../helpers.js';

/** Regressions for what `npm run fuzz` (schemathesis) found; each was a 500 or an undocumented answer. */
describe('fuzz findings stay fixed', () => {
  it('a multipart upload without a boundary, or truncated, is a 400 problem naming the body, not a 500', async () => {
    const { key } = await signup('fuzz findings');
    const token = tokenOf((await createVerification(key)).onboarding_url);
    const noBoundary = await fetch(`${stack().apiUrl}/o/${token}/uploads`, { method: 'POST', headers: { 'content-type': 'multipart/form-data' }, body: 'x' });
    expect(noBoundary.status).toBe(400);
    expect(noBoundary.headers.get('content-type')).toContain('application/problem+json');
    expect((await noBoundary.json()).errors[0]).toMatchObject({ field: '(body)', code: 'malformed_multipart' });
    const truncated = await fetch(`${stack().apiUrl}/o/${token}/uploads`, {
      method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=XYZ' },
      body: '--XYZ\r\ncontent-disposition: form-data; name="kind"\r\n\r\ndocument_front\r\n--XYZ\r\ncontent-disposition: form-data; name="file"; filename="a.jpg"\r\ncontent-type: image/jpeg\r\n\r\n\xff\xd8\xff',
    });
    expect(truncated.status).toBe(400);
    expect(truncated.headers.get('content-type')).toContain('application/problem+json');
  });

  it('a NUL character anywhere in a request is a 400 problem naming the field and writes nothing (PostgreSQL cannot store it; signup was a 500)', async () => {
    const name = `nul\u0000probe-${Date.now()}`;
    const r = await api('POST', '/v1/signup', { json: { name } });
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'name', code: 'nul_character' }] });
    expect(await sql('select id from projects where name like $1', [`nul%probe-%`])).toEqual([]);

    const { key } = await signup('fuzz findings');
    const before = await sql<{ n: string }>('select count(*)::text as n from verifications');
    const created = await api('POST', '/v1/verifications', { key, json: { type: 'kyc', accepted_documents: [{ country: 'MOZ', types: ['national_id'] }], claimed: { given_names: 'ANA\u0000' } } });
    expect(created.status).toBe(400);
    expect(created.body.errors[0]).toMatchObject({ field: 'claimed.given_names', code: 'nul_character' });
    expect(await sql<{ n: string }>('select count(*)::text as n from verifications')).toEqual(before);

    const listed = await api('GET', '/v1/verifications?reference=a%00b', { key });
    expect(listed.status).toBe(400);
    expect(listed.body.errors[0]).toMatchObject({ field: 'reference', code: 'nul_character' });
  });

  it('an over-long path parameter is a 400 problem naming it (was a plain-JSON 414), and beyond the router limit still a problem', async () => {
    const { key } = await signup('fuzz findings');
    const long = await api('GET', `/v1/verifications/${'x'.repeat(500)}`, { key });
    expect(long.status).toBe(400);
    expect(long.headers.get('content-type')).toContain('application/problem+json');
    expect(long.body.errors[0].field).toBe('id');
    const longer = await api('GET', `/v1/verifications/${'x'.repeat(1500)}`, { key });
    expect(longer.status).toBe(400);
    expect(longer.headers.get('content-type')).toContain('application/problem+json');
    expect(longer.body).toMatchObject({ code: 'validation_failed', errors: [{ field: '(path)', code: 'too_long' }] });
    expect(JSON.stringify(longer.body)).not.toContain('xxxxxxxx'); // the path is not echoed
    const badUrl = await api('GET', '/v1/verifications/%E0%A4%A', { key });
    expect(badUrl.status).toBe(400);
    expect(badUrl.headers.get('content-type')).toContain('application/problem+json');
  });

  it('OpenAPI documents error responses as application/problem+json and successes as application/json', async () => {
    const doc = (await api('GET', '/v1/openapi.json')).body;
    const create = doc.paths['/v1/verifications'].post.responses;
    expect(Object.keys(create['201'].content)).toEqual(['application/json']);
    for (const status of ['400', '401', '422']) expect(Object.keys(create[status].content)).toEqual(['application/problem+json']);
  });
});
