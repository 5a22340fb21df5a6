import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';
import type { TTemplateDefinition } from '../../domain/primitives.js';

/** An immutable published version of a Flow: the definition snapshot its Cases run with. */
export const FlowVersion = defineEntity({
  name: 'FlowVersion',
  tableName: 'flow_versions',
  uniques: [{ properties: ['flowId', 'version'] }],
  properties: {
    id: p.string().length(40).primary(),
    flowId: p.string().length(40),
    version: p.integer(),
    templateId: p.string().length(40),
    definition: p.json<TTemplateDefinition>(),
    createdAt: p.datetime(),
  },
});
export type IFlowVersion = InferEntity<typeof FlowVersion>;
