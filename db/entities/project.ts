import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';

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
    webhookIncludeResult: p.boolean().default(false),
    branding: p.json<Record<string, unknown>>().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type IProject = InferEntity<typeof Project>;
