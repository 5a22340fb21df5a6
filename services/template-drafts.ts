import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, type FieldError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { pieceOf, ZTemplateDefinition, type TTemplateDefinition } from '../domain/primitives.js';
import type { MemberPrincipal } from '../domain/principal.js';
import { Flow, TemplateDraft, type ITemplateDraft } from '../db/entities/index.js';
import { audit } from './audit.js';
import { normalizeAcceptedDocuments } from './create-verification.js';
import { activateTemplate, createTemplate, publishFlowVersion } from './flows.js';

/**
 * Template drafts (the Build page). A draft is a definition being composed: saved, reopened,
 * edited and deleted freely; activating it copies the definition into a new immutable Template
 * and makes a Flow (or version n+1 of one). Only valid definitions are stored, so a refused save
 * writes nothing and every stored draft can be previewed and activated.
 */

export interface DraftSummary { id: string; name: string; pieces: string[]; updatedAt: string; createdAt: string }

/** A piece-relative field name (`record_match.rules.0.claimed_key`) for each problem, the form's own naming. */
function fieldOf(raw: unknown, path: PropertyKey[]): string {
  if (path[0] !== 'pieces' || typeof path[1] !== 'number') return path.map(String).join('.') || 'definition';
  const pieces = (raw as { pieces?: unknown[] } | null)?.pieces;
  const type = (pieces?.[path[1]] as { type?: unknown } | undefined)?.type;
  const rest = path.slice(2);
  if (rest[0] === 'settings') rest.shift();
  return [typeof type === 'string' ? type : `pieces.${path[1]}`, ...rest.map(String)].join('.');
}

/**
 * Checks a definition against the primitives registry (the same zod schemas `GET /v1/primitives`
 * publishes) and the explicit-country rule; every problem names its field. Nothing is written.
 */
export function checkDefinition(raw: unknown): { ok: true; definition: TTemplateDefinition } | { ok: false; errors: FieldError[] } {
  const parsed = ZTemplateDefinition.safeParse(raw);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map((i) => (i.code === 'invalid_type' && /received undefined$/.test(i.message)
        ? { field: fieldOf(raw, i.path), code: 'required', message: 'Required.' }
        : { field: fieldOf(raw, i.path), code: i.code, message: i.message })),
    };
  }
  const capture = pieceOf(parsed.data, 'document_capture');
  if (capture) {
    try {
      capture.settings.accepted_documents = normalizeAcceptedDocuments(capture.settings.accepted_documents, 'document_capture.accepted_documents');
    } catch (err) {
      if (err instanceof AppError) return { ok: false, errors: err.errors };
      throw err;
    }
  }
  return { ok: true, definition: parsed.data };
}

function checked(name: string, raw: unknown): { name: string; definition: TTemplateDefinition } {
  const errors: FieldError[] = [];
  const label = name.trim();
  if (!label) errors.push({ field: 'name', code: 'required', message: 'A draft needs a name.' });
  else if (label.length > 200) errors.push({ field: 'name', code: 'too_big', message: 'At most 200 characters.' });
  const r = checkDefinition(raw);
  if (!r.ok) errors.push(...r.errors);
  if (errors.length || !r.ok) throw new AppError('validation_failed', 'The Template is not valid; nothing was saved.', errors);
  return { name: label, definition: r.definition };
}

export async function listDrafts(em: EntityManager, projectId: string): Promise<DraftSummary[]> {
  const drafts = await em.find(TemplateDraft, { projectId }, { orderBy: { updatedAt: 'desc', id: 'desc' } });
  return drafts.map((d) => ({ id: d.id, name: d.name, pieces: d.definition.pieces.map((p) => p.type), updatedAt: d.updatedAt.toISOString(), createdAt: d.createdAt.toISOString() }));
}

/** One draft of this project; another project's id is 404 like an unknown one. */
export async function getDraft(em: EntityManager, projectId: string, id: string): Promise<ITemplateDraft> {
  const d = await em.findOne(TemplateDraft, { id, projectId });
  if (!d) throw new AppError('not_found', 'No such draft.');
  return d;
}

/** Creates (no `id`) or updates a draft; an invalid one throws `validation_failed` naming each field and writes nothing. */
export async function saveDraft(em: EntityManager, principal: MemberPrincipal, projectId: string, input: { name: string; definition: unknown }, id?: string): Promise<ITemplateDraft> {
  const existing = id ? await getDraft(em, projectId, id) : null;
  const { name, definition } = checked(input.name, input.definition);
  const now = new Date();
  const draft = existing ?? em.create(TemplateDraft, { id: newId('templateDraft'), projectId, name, definition, createdByUserId: principal.userId, updatedByUserId: principal.userId, createdAt: now, updatedAt: now });
  if (existing) Object.assign(existing, { name, definition, updatedByUserId: principal.userId, updatedAt: now });
  await audit(em, principal, 'template_draft.saved', { projectId, targetId: draft.id });
  await em.flush();
  return draft;
}

export async function deleteDraft(em: EntityManager, principal: MemberPrincipal, projectId: string, id: string): Promise<void> {
  const d = await getDraft(em, projectId, id);
  em.remove(d);
  await audit(em, principal, 'template_draft.deleted', { projectId, targetId: id });
  await em.flush();
}

const SLUG = /^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$/;

/**
 * Activates a draft in its project as a new Flow (version 1 under `slug`, intake at
 * `/v1/flows/{slug}/intake`). A bad or taken slug is refused before anything is written. The
 * draft stays, so it can be edited on and published again.
 */
export async function activateDraft(em: EntityManager, principal: MemberPrincipal, projectId: string, id: string, slug: string, name: string): Promise<{ flowId: string; slug: string; version: number }> {
  const d = await getDraft(em, projectId, id);
  if (!SLUG.test(slug)) throw new AppError('validation_failed', 'Slugs are 3–64 lowercase letters, digits and dashes.', [{ field: 'slug', code: 'invalid_slug', message: 'Use 3–64 lowercase letters, digits and dashes.' }]);
  if (await em.findOne(Flow, { projectId, slug })) throw new AppError('conflict', `A Flow with slug "${slug}" already exists in this project.`, [{ field: 'slug', code: 'slug_taken', message: 'This slug is taken in this project.' }]);
  const label = name.trim().slice(0, 200) || d.name;
  // The stored draft was valid when saved; the registry check runs again (a released piece never changes, so it still passes).
  const template = await createTemplate(em, projectId, label, d.definition);
  const { flow, version } = await activateTemplate(em, projectId, template.id, slug, label);
  await audit(em, principal, 'flow.activated', { projectId, targetId: flow.id, meta: { slug, version: version.version, draft_id: d.id } });
  await em.flush();
  return { flowId: flow.id, slug: flow.slug, version: version.version };
}

/** Publishes a draft as version n+1 of an existing Flow of the project; running Cases keep their version. */
export async function publishDraft(em: EntityManager, principal: MemberPrincipal, projectId: string, id: string, flowSlug: string): Promise<{ flowId: string; slug: string; version: number }> {
  const d = await getDraft(em, projectId, id);
  const flow = await em.findOne(Flow, { projectId, slug: flowSlug });
  if (!flow) throw new AppError('validation_failed', 'Choose one of this project\'s Flows.', [{ field: 'flow', code: 'unknown_flow', message: 'No such Flow in this project.' }]);
  const template = await createTemplate(em, projectId, `${flow.name} v${flow.currentVersion + 1}`, d.definition);
  const v = await publishFlowVersion(em, projectId, flow.slug, template.id);
  await audit(em, principal, 'flow.version_published', { projectId, targetId: flow.id, meta: { slug: flow.slug, version: v.version, draft_id: d.id } });
  await em.flush();
  return { flowId: flow.id, slug: flow.slug, version: v.version };
}
