import { describe, expect, it } from 'vitest';
import { AppError } from '../domain/errors.js';
import type { Principal } from '../domain/principal.js';
import { actingProjectId, requireApiKeyPrincipal } from './tenancy.js';

const key: Principal = { kind: 'api_key', projectId: 'prj_a', apiKeyId: 'key_1' };
const member: Principal = { kind: 'member', userId: 'usr_1', orgId: 'org_1', role: 'admin' };

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (e) {
    return e instanceof AppError ? e.code : 'not_an_app_error';
  }
};

describe('tenancy: which project a principal acts on', () => {
  it('an API key acts on its own project, with or without naming it', () => {
    expect(actingProjectId(key)).toBe('prj_a');
    expect(actingProjectId(key, 'prj_a')).toBe('prj_a');
  });

  it("another project's id is 404, exactly like one that does not exist", () => {
    expect(codeOf(() => actingProjectId(key, 'prj_b'))).toBe('not_found');
  });

  it('a member principal is refused until the dashboard guard resolves its projects', () => {
    expect(codeOf(() => actingProjectId(member))).toBe('forbidden');
    expect(codeOf(() => actingProjectId(member, 'prj_a'))).toBe('forbidden');
    expect(codeOf(() => requireApiKeyPrincipal(member))).toBe('forbidden');
    expect(requireApiKeyPrincipal(key)).toBe(key);
  });
});
