/**
 * The OpenAPI 3.1 `webhooks` entry: what the service POSTs to a project's webhook URL (spec:
 * Events). Documentation only; deliveries are made by activities/webhook-delivery.ts.
 */
import type fastifySwagger from '@fastify/swagger';

const hex = { type: 'string', pattern: '^[0-9a-f]{64}$' } as const;

const SIGNATURE_RULE =
  'Signature: hex(HMAC-SHA256(secret, `<X-Service-Timestamp>.<raw body>`)), compared in constant time over the raw bytes; reject stale timestamps. '
  + 'After `regenerate`, the replaced secrets keep signing until `previous_secret_expires_at`: meanwhile `X-Service-Signature-Previous` carries their signatures, and a delivery is genuine when any signature matches any secret the receiver holds (sdk/webhook-verify.ts). '
  + 'Each delivery makes at most 3 attempts within about 7 seconds; a 2xx stops retries. When all 3 fail, the event is delivered again after 30 s, 1, 2, 5, 10 and 30 minutes and 1 hour (unless the operator set WEBHOOK_REDELIVERY=off), so the same event may arrive more than once.';

function event(summary: string, description: string, events: string[]): fastifySwagger.OpenAPIV3_2.PathItemObject {
  return {
    post: {
      summary,
      description: `${description} ${SIGNATURE_RULE}`,
      parameters: [
        { name: 'X-Service-Event', in: 'header', required: true, schema: { type: 'string', enum: events } },
        { name: 'X-Service-Timestamp', in: 'header', required: true, description: 'Unix seconds at signing.', schema: { type: 'string', pattern: '^[0-9]{1,12}$' } },
        { name: 'X-Service-Signature', in: 'header', required: true, description: 'One hex HMAC-SHA256, with the newest signing secret.', schema: hex },
        { name: 'X-Service-Signature-Previous', in: 'header', required: false, description: 'Only during a rotation grace period: comma-separated hex HMAC-SHA256 signatures with the replaced secrets.', schema: { type: 'string', pattern: '^[0-9a-f]{64}(,[0-9a-f]{64})*$' } },
      ],
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookEvent' } } } },
      responses: { '2XX': { description: 'Received; stops retries.' } },
    },
  };
}

/** One entry per event (OpenAPI 3.1 `webhooks`); all share the PII-free envelope `WebhookEvent`. */
export const OPENAPI_WEBHOOKS: Record<string, fastifySwagger.OpenAPIV3_2.PathItemObject> = {
  'verification.completed': event('The engine produced an assessment', 'Body: the PII-free envelope (`event` = `verification.completed`); `result` only when the project opted in.', ['verification.completed']),
  'verification.failed': event('The engine errored terminally', 'Body: the PII-free envelope (`event` = `verification.failed`, `assessment` = `assessment_incomplete`).', ['verification.failed']),
  'verification.reviewed': event(
    'A teammate recorded a customer disposition on a Case',
    'Body: the PII-free envelope (`event` = `verification.reviewed`) plus `customer_disposition` (the recorded state) and `review: { state, at }`. The reviewer\'s note is never sent. The assessment, confidence and reasons are those of the Case, unchanged by the disposition.',
    ['verification.reviewed'],
  ),
};
