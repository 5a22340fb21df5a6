import { describe, expect, it } from 'vitest';
import { api, createVerification, signup } from '../helpers.js';

/** Every machine route under /v1 that takes an API key, with a body that would otherwise be valid. */
function machineRoutes(projectId: string, verificationId: string): [string, string, unknown?][] {
  return [
    ['GET', '/v1/me'],
    ['POST', '/v1/keys/rotate'],
    ['POST', '/v1/webhook', { url: 'http://127.0.0.1:9/x' }],
    ['POST', '/v1/verifications', { type: 'kyc', accepted_documents: [{ country: 'MEX', types: ['passport'] }] }],
    ['GET', '/v1/verifications'],
    ['GET', `/v1/verifications/${verificationId}`],
    ['DELETE', `/v1/verifications/${verificationId}`],
    ['POST', `/v1/verifications/${verificationId}/ubos`, {}],
    ['GET', `/v1/projects/${projectId}/keys`],
    ['POST', `/v1/projects/${projectId}/keys`, { name: 'x' }],
    ['DELETE', `/v1/projects/${projectId}/keys/key_x`],
    ['GET', `/v1/projects/${projectId}/branding`],
    ['PUT', `/v1/projects/${projectId}/branding`, { name: 'x' }],
    ['GET', `/v1/projects/${projectId}/webhook`],
    ['PUT', `/v1/projects/${projectId}/webhook`, { url: 'http://127.0.0.1:9/x' }],
    ['DELETE', `/v1/projects/${projectId}/webhook`],
  ];
}

describe('API key authentication', () => {
  it('answers 401 problem+json for a missing, unknown, revoked or rotated key on every machine route', async () => {
    const { projectId, key } = await signup();
    const v = await createVerification(key);
    const created = await api('POST', `/v1/projects/${projectId}/keys`, { key, json: { name: 'to revoke' } });
    expect(created.status).toBe(201);
    const revoked = created.body.api_key as string;
    expect((await api('DELETE', `/v1/projects/${projectId}/keys/${created.body.id}`, { key })).status).toBe(204);
    const beforeRotate = (await api('POST', `/v1/projects/${projectId}/keys`, { key, json: { name: 'rotated' } })).body.api_key as string;
    const rotated = await api('POST', '/v1/keys/rotate', { key: beforeRotate });
    expect(rotated.status).toBe(200);
    expect((await api('GET', '/v1/me', { key: rotated.body.api_key })).status).toBe(200);

    const badKeys: [string, string | undefined][] = [
      ['missing', undefined],
      ['unknown', 'ivs_test_' + 'A'.repeat(43)],
      ['garbage', 'not-a-key'],
      ['revoked', revoked],
      ['rotated', beforeRotate],
    ];
    for (const [label, bad] of badKeys) {
      for (const [method, path, json] of machineRoutes(projectId, v.id)) {
        const r = await api(method, path, { key: bad, json });
        expect(r.status, `${label} key on ${method} ${path}`).toBe(401);
        expect(r.headers.get('content-type')).toContain('application/problem+json');
        expect(r.body.code).toBe('unauthorized');
      }
    }
    // nothing was changed by any of those calls
    expect((await api('GET', `/v1/verifications/${v.id}`, { key })).body.status).toBe('collecting');
  });

  it('scopes everything by project: another project sees 404, never the resource', async () => {
    const a = await signup('project a');
    const b = await signup('project b');
    const v = await createVerification(a.key);
    for (const [method, path] of [['GET', `/v1/verifications/${v.id}`], ['DELETE', `/v1/verifications/${v.id}`], ['POST', `/v1/verifications/${v.id}/ubos`]] as const) {
      const r = await api(method, path, { key: b.key, json: method === 'POST' ? {} : undefined });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.code).toBe('not_found');
    }
    for (const [method, path, json] of machineRoutes(a.projectId, v.id).filter(([, p]) => p.startsWith('/v1/projects'))) {
      const r = await api(method, path, { key: b.key, json });
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    const list = await api('GET', '/v1/verifications', { key: b.key });
    expect(list.body.data.map((x: { id: string }) => x.id)).not.toContain(v.id);
    expect((await api('GET', `/v1/verifications/${v.id}`, { key: a.key })).body.status).toBe('collecting');
  });
});
