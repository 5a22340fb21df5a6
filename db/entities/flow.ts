import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';

/** A Template activated in a project: a stable slug and link; its versions live in flow_versions. */
export const Flow = defineEntity({
  name: 'Flow',
  tableName: 'flows',
  uniques: [{ properties: ['projectId', 'slug'] }],
  properties: {
    id: p.string().length(40).primary(),
    projectId: p.string().length(40),
    slug: p.string().length(64),
    name: p.string().length(200),
    active: p.boolean(),
    currentVersion: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type IFlow = InferEntity<typeof Flow>;
