import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';
import type { TTemplateDefinition } from '../../domain/primitives.js';

/**
 * A Template being composed on the Build page. Unlike a Template it is mutable (saved, reopened,
 * edited, deleted); activating it copies its definition into a new immutable Template. Only
 * definitions that pass the primitives registry are stored, so a draft can always be previewed
 * and activated. No PII: pieces and settings only.
 */
export const TemplateDraft = defineEntity({
  name: 'TemplateDraft',
  tableName: 'template_drafts',
  indexes: [{ properties: ['projectId', 'updatedAt'] }],
  properties: {
    id: p.string().length(40).primary(),
    projectId: p.string().length(40),
    name: p.string().length(200),
    definition: p.json<TTemplateDefinition>(),
    createdByUserId: p.string().length(40),
    updatedByUserId: p.string().length(40),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type ITemplateDraft = InferEntity<typeof TemplateDraft>;
