import { describe, expect, it } from 'vitest';
import { limiterFor } from './abuse-limits.js';

describe('abuse limiter chosen by route URL', () => {
  it('maps each route family to its limiter and leaves health, assets and dashboard pages alone', () => {
    expect(limiterFor('/v1/signup')).toBe('signup');
    expect(limiterFor('/v1/verifications')).toBe('apiKey');
    expect(limiterFor('/v1/docs/static/index.html')).toBe('apiKey');
    expect(limiterFor('/o/:token')).toBe('captureToken');
    expect(limiterFor('/o/:token/uploads')).toBe('captureToken');
    expect(limiterFor('/l/:code')).toBe('shortLink');
    expect(limiterFor('/auth/:provider/start')).toBe('signIn');
    expect(limiterFor('/auth/:provider/callback')).toBe('signIn');
    expect(limiterFor('/dashboard/login')).toBe('signIn');
    for (const url of ['/healthz', '/', '/hosted/:file', '/dashboard', '/dashboard/projects/:project_id/branding', '/dashboard/assets/:file', '/authors']) {
      expect({ url, limiter: limiterFor(url) }).toEqual({ url, limiter: null });
    }
  });
});
