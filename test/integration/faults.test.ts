import { describe, expect, it } from 'vitest';
import { inProcessApp } from '../app-factory.js';
import { countRows, signup } from '../helpers.js';

describe('never a Case row without its workflow', () => {
  it('rolls the insert back when the workflow cannot be started', async () => {
    const { projectId, key } = await signup();
    // A namespace that does not exist makes every workflow start fail at the real server.
    const broken = await inProcessApp({ TEMPORAL_NAMESPACE: 'no-such-namespace' });
    try {
      const before = await countRows('verifications', 'project_id = $1', [projectId]);
      const r = await broken.app.inject({
        method: 'POST',
        url: '/v1/verifications',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        payload: { type: 'kyc', accepted_documents: [{ country: 'MOZ', types: ['national_id'] }], applicant: { given_names: 'X' } },
      });
      expect(r.statusCode).toBe(503);
      expect(r.json().code).toBe('workflow_unavailable');
      expect(await countRows('verifications', 'project_id = $1', [projectId])).toBe(before);
      expect(await countRows('capture_sessions', 'verification_id not in (select id from verifications)')).toBe(0);
    } finally {
      await broken.close();
    }
  });
});
