/**
 * Verifying this service's webhooks in a receiver (Node ≥ 18, no dependencies).
 *
 *   import { verifyWebhook } from './webhook-verify.js';
 *   // Use the RAW request body bytes, exactly as received: never re-serialised JSON.
 *   const result = verifyWebhook({
 *     secret: process.env.SIGNING_SECRET,            // whsec_…, shown once when you set the webhook
 *     body: rawBody,                                  // Buffer or string
 *     timestamp: req.headers['x-service-timestamp'],
 *     signature: req.headers['x-service-signature'],
 *   });
 *   if (!result.ok) return res.status(400).end();     // result.reason says why
 *   // Persist the event, answer 2xx quickly, then GET /v1/verifications/{id} before acting.
 *   // The same event may arrive more than once: deduplicate on (event, id).
 *
 * The signature is hex(HMAC-SHA256(secret, `${timestamp}.${rawBody}`)). Comparison is constant-time,
 * and a timestamp older (or further in the future) than `toleranceSeconds` is rejected so a
 * captured delivery cannot be replayed later.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type VerifyResult = { ok: true } | { ok: false; reason: 'missing_header' | 'stale_timestamp' | 'bad_signature' };

export function computeSignature(secret: string, timestamp: string | number, body: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

export function verifyWebhook(input: {
  secret: string;
  body: Buffer | string;
  timestamp: string | string[] | undefined;
  signature: string | string[] | undefined;
  toleranceSeconds?: number;
  nowSeconds?: number;
}): VerifyResult {
  const ts = Array.isArray(input.timestamp) ? input.timestamp[0] : input.timestamp;
  const sig = Array.isArray(input.signature) ? input.signature[0] : input.signature;
  if (!ts || !sig || !/^\d{1,12}$/.test(ts)) return { ok: false, reason: 'missing_header' };
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(ts)) > (input.toleranceSeconds ?? 300)) return { ok: false, reason: 'stale_timestamp' };
  const expected = Buffer.from(computeSignature(input.secret, ts, input.body), 'utf8');
  const given = Buffer.from(sig.trim().toLowerCase(), 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'bad_signature' };
  return { ok: true };
}
