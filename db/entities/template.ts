import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';
import type { TTemplateDefinition } from '../../domain/primitives.js';

/** A flow blueprint built from primitives. Its definition is immutable once a Flow uses it. */
export const Template = defineEntity({
  name: 'Template',
  tableName: 'templates',
  properties: {
    id: p.string().length(40).primary(),
    projectId: p.string().length(40).index(),
    name: p.string().length(200),
    definition: p.json<TTemplateDefinition>(),
    createdAt: p.datetime(),
  },
});
export type ITemplate = InferEntity<typeof Template>;
