import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';

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
    definition: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(),
  },
});
export type IFlowVersion = InferEntity<typeof FlowVersion>;
