import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { computeSignature, verifyWebhook } from './webhook-verify.js';

describe('webhook verification helper', () => {
  const secret = 'whsec_test_secret';
  const body = Buffer.from('{"event":"verification.completed","id":"ver_1"}');
  const ts = '1795000000';

  it('signs hex(HMAC-SHA256(secret, "<timestamp>.<raw body>")) as the spec says', () => {
    expect(computeSignature(secret, ts, body)).toBe(createHmac('sha256', secret).update(`${ts}.${body.toString()}`).digest('hex'));
  });

  it('accepts the genuine delivery and rejects tampering, wrong secrets, stale or missing headers', () => {
    const signature = computeSignature(secret, ts, body);
    const now = Number(ts) + 10;
    expect(verifyWebhook({ secret, body, timestamp: ts, signature, nowSeconds: now })).toEqual({ ok: true });
    expect(verifyWebhook({ secret, body: body.toString().replace('ver_1', 'ver_2'), timestamp: ts, signature, nowSeconds: now })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyWebhook({ secret: 'whsec_other', body, timestamp: ts, signature, nowSeconds: now })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyWebhook({ secret, body, timestamp: ts, signature: signature.slice(0, 10), nowSeconds: now })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyWebhook({ secret, body, timestamp: ts, signature, nowSeconds: now + 600 })).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(verifyWebhook({ secret, body, timestamp: undefined, signature, nowSeconds: now })).toEqual({ ok: false, reason: 'missing_header' });
  });
});
