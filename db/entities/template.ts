import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';

/** A flow blueprint built from primitives. Its definition is immutable once a Flow uses it. */
export const Template = defineEntity({
  name: 'Template',
  tableName: 'templates',
  properties: {
    id: p.string().length(40).primary(),
    projectId: p.string().length(40).index(),
    name: p.string().length(200),
    definition: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(),
  },
});
export type ITemplate = InferEntity<typeof Template>;
