import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';
import type { TBranding } from '../../domain/api-schemas.js';

/** A project is the tenant of the machine API: keys, webhook, branding and Cases belong to it; it belongs to an org. */
export const Project = defineEntity({
  name: 'Project',
  tableName: 'projects',
  properties: {
    id: p.string().length(40).primary(),
    orgId: p.string().length(40).index(),
    name: p.string().length(200),
    sandbox: p.boolean(),
    webhookUrl: p.text().nullable(),
    /** AES-GCM sealed `whsec_…`; never returned on read. */
    webhookSecretEnc: p.text().nullable(),
    /**
     * Secrets replaced by `regenerate` that still sign deliveries until their grace expiry, newest
     * first (sealed like `webhookSecretEnc`). Expired entries are pruned on the next rotation.
     */
    webhookPreviousSecrets: p.json<Array<{ secretEnc: string; expiresAt: string }>>().nullable(),
    webhookIncludeResult: p.boolean().default(false),
    branding: p.json<TBranding>().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type IProject = InferEntity<typeof Project>;
