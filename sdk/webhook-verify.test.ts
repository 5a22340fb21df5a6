import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { computeSignature, parseSignatures, verifyWebhook, verifyWebhookRequest } from './webhook-verify.js';

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

describe('webhook verification with several secrets (rotation overlap)', () => {
  const oldSecret = 'whsec_old_secret';
  const newSecret = 'whsec_new_secret';
  const body = Buffer.from('{"event":"verification.completed","id":"ver_9"}');
  const ts = '1795000000';
  const now = Number(ts) + 5;
  const primary = computeSignature(newSecret, ts, body);
  const previous = computeSignature(oldSecret, ts, body);

  it('accepts a rotation delivery with the new secret, the old one, or both', () => {
    for (const secrets of [[newSecret], [oldSecret], [oldSecret, newSecret]]) {
      expect(verifyWebhook({ secrets, body, timestamp: ts, signature: primary, previousSignatures: previous, nowSeconds: now })).toEqual({ ok: true });
    }
  });

  it('reads the headers of a request, in any case of repetition or spacing', () => {
    const headers = { 'x-service-timestamp': ts, 'x-service-signature': primary, 'x-service-signature-previous': [`${computeSignature('whsec_older', ts, body)}, ${previous}`] };
    expect(verifyWebhookRequest({ secrets: [oldSecret], body, headers, nowSeconds: now })).toEqual({ ok: true });
    expect(verifyWebhookRequest({ secrets: [undefined, newSecret], body, headers, nowSeconds: now })).toEqual({ ok: true });
    expect(parseSignatures('a, b', ['c d', 'E'])).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('rejects when no secret matches any signature, after the old secret stopped signing, or with no secret at all', () => {
    expect(verifyWebhook({ secrets: ['whsec_third'], body, timestamp: ts, signature: primary, previousSignatures: previous, nowSeconds: now })).toEqual({ ok: false, reason: 'bad_signature' });
    // after the grace period the delivery carries only the new signature: the old secret alone fails
    expect(verifyWebhook({ secrets: [oldSecret], body, timestamp: ts, signature: primary, nowSeconds: now })).toEqual({ ok: false, reason: 'bad_signature' });
    // a signature for the old secret over another body does not verify this one
    expect(verifyWebhook({ secrets: [oldSecret], body, timestamp: ts, signature: primary, previousSignatures: computeSignature(oldSecret, ts, 'x'), nowSeconds: now })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyWebhook({ secrets: [], body, timestamp: ts, signature: primary, nowSeconds: now })).toEqual({ ok: false, reason: 'no_secret' });
    expect(verifyWebhook({ secrets: [newSecret], body, timestamp: ts, signature: ' , ', nowSeconds: now })).toEqual({ ok: false, reason: 'missing_header' });
  });

  it('checks the timestamp unless the tolerance is switched off with Infinity, and refuses a negative tolerance', () => {
    const late = Number(ts) + 30 * 86_400;
    expect(verifyWebhook({ secrets: [newSecret], body, timestamp: ts, signature: primary, nowSeconds: late })).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(verifyWebhook({ secrets: [newSecret], body, timestamp: ts, signature: primary, nowSeconds: late, toleranceSeconds: Number.POSITIVE_INFINITY })).toEqual({ ok: true });
    expect(verifyWebhook({ secrets: [newSecret], body, timestamp: ts, signature: primary, nowSeconds: now, toleranceSeconds: 0 })).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(() => verifyWebhook({ secrets: [newSecret], body, timestamp: ts, signature: primary, toleranceSeconds: -1 })).toThrow(RangeError);
    expect(() => verifyWebhook({ secrets: [newSecret], body, timestamp: ts, signature: primary, toleranceSeconds: Number.NaN })).toThrow(RangeError);
  });
});
