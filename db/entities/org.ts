import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';

/** An organisation: the dashboard's top level. Members hold a role in it; projects belong to it. */
export const Org = defineEntity({
  name: 'Org',
  tableName: 'orgs',
  properties: {
    id: p.string().length(40).primary(),
    name: p.string().length(200),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type IOrg = InferEntity<typeof Org>;
