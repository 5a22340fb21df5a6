/**
 * The OpenAPI 3.1 `webhooks` entry: what the service POSTs to a project's webhook URL (spec:
 * Events). Documentation only; deliveries are made by activities/webhook-delivery.ts.
 */
import type fastifySwagger from '@fastify/swagger';

const hex = { type: 'string', pattern: '^[0-9a-f]{64}$' } as const;

export const OPENAPI_WEBHOOKS: Record<string, fastifySwagger.OpenAPIV3_2.PathItemObject> = {
  verificationEvent: {
    post: {
      summary: 'A verification reached a terminal status',
      description:
        'Signature: hex(HMAC-SHA256(secret, `<X-Service-Timestamp>.<raw body>`)), compared in constant time over the raw bytes; reject stale timestamps. '
        + 'After `regenerate`, the replaced secrets keep signing until `previous_secret_expires_at`: meanwhile `X-Service-Signature-Previous` carries their signatures, and a delivery is genuine when any signature matches any secret the receiver holds (sdk/webhook-verify.ts). '
        + 'At most 3 attempts within about 7 seconds; a 2xx stops retries; the same event may arrive more than once.',
      parameters: [
        { name: 'X-Service-Event', in: 'header', required: true, schema: { type: 'string', enum: ['verification.completed', 'verification.failed', 'verification.reviewed'] } },
        { name: 'X-Service-Timestamp', in: 'header', required: true, description: 'Unix seconds at signing.', schema: { type: 'string', pattern: '^[0-9]{1,12}$' } },
        { name: 'X-Service-Signature', in: 'header', required: true, description: 'One hex HMAC-SHA256, with the newest signing secret.', schema: hex },
        { name: 'X-Service-Signature-Previous', in: 'header', required: false, description: 'Only during a rotation grace period: comma-separated hex HMAC-SHA256 signatures with the replaced secrets.', schema: { type: 'string', pattern: '^[0-9a-f]{64}(,[0-9a-f]{64})*$' } },
      ],
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookEvent' } } } },
      responses: { '2XX': { description: 'Received; stops retries.' } },
    },
  },
};
