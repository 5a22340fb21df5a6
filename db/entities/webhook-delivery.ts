import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';

/** Every webhook attempt, PII-free: no body, no URL path or query (they may carry tokens). */
export const WebhookDelivery = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  properties: {
    id: p.string().length(40).primary(),
    verificationId: p.string().length(40).index(),
    projectId: p.string().length(40),
    event: p.string().length(40),
    /** Groups the attempts of one delivery run (the Temporal activity execution). */
    deliveryKey: p.string().length(120),
    attempt: p.integer(),
    urlOrigin: p.string().length(300),
    statusCode: p.integer().nullable(),
    error: p.string().length(120).nullable(),
    durationMs: p.integer(),
    createdAt: p.datetime(),
  },
});
export type IWebhookDelivery = InferEntity<typeof WebhookDelivery>;
