/**
 * Verifying this service's webhooks in a receiver (Node ≥ 18, no dependencies).
 *
 *   import { verifyWebhook } from './webhook-verify.js';
 *   // Use the RAW request body bytes, exactly as received: never re-serialised JSON.
 *   const result = verifyWebhook({
 *     secrets: [process.env.SIGNING_SECRET, process.env.SIGNING_SECRET_OLD], // whsec_…; any one may match
 *     body: rawBody,                                  // Buffer or string
 *     timestamp: req.headers['x-service-timestamp'],
 *     signature: req.headers['x-service-signature'],
 *     previousSignatures: req.headers['x-service-signature-previous'], // present only during a rotation
 *   });
 *   if (!result.ok) return res.status(400).end();     // result.reason says why
 *   // Persist the event, answer 2xx quickly, then GET /v1/verifications/{id} before acting.
 *   // The same event may arrive more than once: deduplicate on (event, id).
 *
 * The signature is hex(HMAC-SHA256(secret, `${timestamp}.${rawBody}`)). Comparison is constant-time,
 * and a timestamp older (or further in the future) than `toleranceSeconds` (default 300) is
 * rejected so a captured delivery cannot be replayed later.
 *
 * Secret rotation: `regenerate=true` returns a new secret, and for a grace period (default 24 h)
 * every delivery is signed with both. `X-Service-Signature` always holds exactly one hex signature,
 * made with the newest secret, as the spec defines it; the replaced secrets' signatures travel in
 * `X-Service-Signature-Previous` (comma-separated hex). Pass every secret you hold in `secrets`
 * and both headers: the delivery is genuine when any signature matches any secret. Deploy the new
 * secret, then drop the old one from `secrets` before the grace period ends.
 *
 * Timestamp tolerance: pass `toleranceSeconds: Infinity` to switch the staleness check off, for
 * example to re-verify stored deliveries later. Do not do that on a live endpoint: without it a
 * captured delivery can be replayed for ever. Deduplicating on (event, id) does not replace it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type VerifyResult = { ok: true } | { ok: false; reason: 'missing_header' | 'stale_timestamp' | 'bad_signature' | 'no_secret' };

export const SIGNATURE_HEADER = 'x-service-signature';
export const PREVIOUS_SIGNATURES_HEADER = 'x-service-signature-previous';
export const TIMESTAMP_HEADER = 'x-service-timestamp';

export function computeSignature(secret: string, timestamp: string | number, body: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** Splits header values into candidate hex signatures (comma or space separated; repeated headers allowed). */
export function parseSignatures(...values: Array<string | string[] | undefined>): string[] {
  const out: string[] = [];
  for (const v of values) {
    for (const line of Array.isArray(v) ? v : v === undefined ? [] : [v]) {
      for (const part of line.split(/[\s,]+/)) if (part) out.push(part.toLowerCase());
    }
  }
  return out;
}

export function verifyWebhook(input: {
  /** One secret, or use `secrets`. */
  secret?: string;
  /** Every secret the receiver currently accepts (during a rotation: the new and the old). */
  secrets?: ReadonlyArray<string | undefined | null>;
  body: Buffer | string;
  timestamp: string | string[] | undefined;
  signature: string | string[] | undefined;
  /** The X-Service-Signature-Previous header, when present. */
  previousSignatures?: string | string[] | undefined;
  /** Seconds of clock difference accepted (default 300). `Infinity` disables the check: see the header comment. */
  toleranceSeconds?: number;
  nowSeconds?: number;
}): VerifyResult {
  const secrets = [...(input.secret ? [input.secret] : []), ...(input.secrets ?? [])].filter((s): s is string => typeof s === 'string' && s.length > 0);
  if (secrets.length === 0) return { ok: false, reason: 'no_secret' };
  const ts = Array.isArray(input.timestamp) ? input.timestamp[0] : input.timestamp;
  const given = parseSignatures(input.signature, input.previousSignatures).slice(0, 16);
  if (!ts || given.length === 0 || !/^\d{1,12}$/.test(ts)) return { ok: false, reason: 'missing_header' };
  const tolerance = input.toleranceSeconds ?? 300;
  if (!(tolerance >= 0)) throw new RangeError('toleranceSeconds must be a number ≥ 0 (Infinity disables the check)');
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(ts)) > tolerance) return { ok: false, reason: 'stale_timestamp' };
  // Every pair is compared in constant time; the loop does not stop early on a mismatch.
  let matched = false;
  for (const secret of secrets) {
    const expected = Buffer.from(computeSignature(secret, ts, input.body), 'utf8');
    for (const sig of given) {
      const candidate = Buffer.from(sig, 'utf8');
      if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) matched = true;
    }
  }
  return matched ? { ok: true } : { ok: false, reason: 'bad_signature' };
}

/** The same check reading the three headers from a Node `IncomingHttpHeaders`-like object. */
export function verifyWebhookRequest(input: {
  secrets: ReadonlyArray<string | undefined | null>;
  body: Buffer | string;
  headers: Record<string, string | string[] | undefined>;
  toleranceSeconds?: number;
  nowSeconds?: number;
}): VerifyResult {
  const h = input.headers;
  return verifyWebhook({
    secrets: input.secrets,
    body: input.body,
    timestamp: h[TIMESTAMP_HEADER],
    signature: h[SIGNATURE_HEADER],
    previousSignatures: h[PREVIOUS_SIGNATURES_HEADER],
    ...(input.toleranceSeconds !== undefined ? { toleranceSeconds: input.toleranceSeconds } : {}),
    ...(input.nowSeconds !== undefined ? { nowSeconds: input.nowSeconds } : {}),
  });
}
