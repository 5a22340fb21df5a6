import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import type { Principal } from '../domain/principal.js';
import { pieceOf, SAMPLE_KYC_DEFINITION, ZTemplateDefinition, type TTemplateDefinition } from '../domain/primitives.js';
import { Flow, FlowVersion, Template, type IFlow, type IFlowVersion, type ITemplate } from '../db/entities/index.js';
import { normalizeAcceptedDocuments } from './create-verification.js';
import { actingProjectId } from './tenancy.js';

/**
 * Template → Flow → Case. A Template is a blueprint of primitives; activating it in a project
 * makes a Flow with a stable slug (and link). Publishing a new definition to a live Flow adds
 * version n+1 under the same slug; versions are immutable, and each Case records the version it
 * runs with, so running Cases never change.
 */

export function parseDefinition(raw: unknown): TTemplateDefinition {
  const parsed = ZTemplateDefinition.safeParse(raw);
  if (!parsed.success) {
    throw new AppError('validation_failed', 'The template definition is invalid.', parsed.error.issues.map((i) => ({ field: `definition.${i.path.join('.')}`, code: i.code, message: i.message })));
  }
  // Explicit countries only, stored as alpha-3 (the same rule as POST /v1/verifications).
  const capture = pieceOf(parsed.data, 'document_capture');
  if (capture) capture.settings.accepted_documents = normalizeAcceptedDocuments(capture.settings.accepted_documents, 'definition.document_capture.accepted_documents');
  return parsed.data;
}

export async function createTemplate(em: EntityManager, projectId: string, name: string, definition: unknown): Promise<ITemplate> {
  const t = em.create(Template, { id: newId('template'), projectId, name, definition: parseDefinition(definition), createdAt: new Date() });
  await em.flush();
  return t;
}

const SLUG = /^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$/;

export async function activateTemplate(em: EntityManager, projectId: string, templateId: string, slug: string, name?: string): Promise<{ flow: IFlow; version: IFlowVersion }> {
  if (!SLUG.test(slug)) throw new AppError('validation_failed', 'Slugs are 3–64 lowercase letters, digits and dashes.', [{ field: 'slug', code: 'invalid_slug', message: 'invalid slug' }]);
  return em.transactional(async (tx) => {
    const template = await tx.findOne(Template, { id: templateId, projectId });
    if (!template) throw new AppError('not_found', 'No such template.');
    if (await tx.findOne(Flow, { projectId, slug })) throw new AppError('conflict', `A Flow with slug "${slug}" already exists in this project.`, [{ field: 'slug', code: 'slug_taken', message: 'slug taken' }]);
    const now = new Date();
    const flow = tx.create(Flow, { id: newId('flow'), projectId, slug, name: name ?? template.name, active: true, currentVersion: 1, createdAt: now, updatedAt: now });
    const version = tx.create(FlowVersion, { id: newId('flowVersion'), flowId: flow.id, version: 1, templateId, definition: template.definition, createdAt: now });
    return { flow, version };
  });
}

/** Publishes version n+1 of a live Flow from a new template; earlier versions and their Cases stay as they were. */
export async function publishFlowVersion(em: EntityManager, projectId: string, slug: string, templateId: string): Promise<IFlowVersion> {
  return em.transactional(async (tx) => {
    const flow = await tx.findOne(Flow, { projectId, slug }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!flow) throw new AppError('not_found', 'No such Flow.');
    const template = await tx.findOne(Template, { id: templateId, projectId });
    if (!template) throw new AppError('not_found', 'No such template.');
    flow.currentVersion += 1;
    flow.updatedAt = new Date();
    return tx.create(FlowVersion, { id: newId('flowVersion'), flowId: flow.id, version: flow.currentVersion, templateId, definition: template.definition, createdAt: new Date() });
  });
}

export async function setFlowActive(em: EntityManager, projectId: string, slug: string, active: boolean): Promise<void> {
  const flow = await em.findOne(Flow, { projectId, slug });
  if (!flow) throw new AppError('not_found', 'No such Flow.');
  flow.active = active;
  flow.updatedAt = new Date();
  await em.flush();
}

/** The active Flow of this project with its current version; another project's or an inactive slug is 404. */
export async function findActiveFlow(em: EntityManager, projectId: string, slug: string): Promise<{ flow: IFlow; version: IFlowVersion; definition: TTemplateDefinition }> {
  const flow = await em.findOne(Flow, { projectId, slug, active: true });
  if (!flow) throw new AppError('not_found', 'No active Flow with this slug in this project.');
  const version = await em.findOneOrFail(FlowVersion, { flowId: flow.id, version: flow.currentVersion });
  return { flow, version, definition: ZTemplateDefinition.parse(version.definition) };
}

/** Every new sandbox project gets the sample Flow `sample-kyc` so intake can be tried at once. */
export async function seedSampleFlow(em: EntityManager, projectId: string): Promise<IFlow> {
  const template = await createTemplate(em, projectId, 'Sample KYC', SAMPLE_KYC_DEFINITION);
  return (await activateTemplate(em, projectId, template.id, 'sample-kyc', 'Sample KYC')).flow;
}

/** `GET /v1/flows`: the principal's project's Flows with their current version, oldest first. */
export async function listFlows(em: EntityManager, principal: Principal) {
  const flows = await em.find(Flow, { projectId: actingProjectId(principal) }, { orderBy: { createdAt: 'asc' } });
  return flows.map((f) => ({ id: f.id, slug: f.slug, name: f.name, active: f.active, current_version: f.currentVersion, created_at: f.createdAt.toISOString(), updated_at: f.updatedAt.toISOString() }));
}
