import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../domain/errors.js';
import { diffDefinitions, type DefinitionChange } from '../domain/definition-diff.js';
import { Flow, FlowVersion } from '../db/entities/index.js';
import { activateTemplate, createTemplate, publishFlowVersion } from './flows.js';

/** What the dashboard's Flows page reads: each Flow with its versions, newest first, and each version's diff from the one before. */
export interface FlowPageEntry {
  id: string; slug: string; name: string; active: boolean; currentVersion: number;
  versions: { version: number; at: string; definition: unknown; changes: DefinitionChange[] | null }[];
}

export async function flowsWithVersions(em: EntityManager, projectId: string): Promise<FlowPageEntry[]> {
  const flows = await em.find(Flow, { projectId }, { orderBy: { createdAt: 'asc' } });
  const versions = flows.length ? await em.find(FlowVersion, { flowId: { $in: flows.map((f) => f.id) } }, { orderBy: { version: 'asc' } }) : [];
  return flows.map((f) => {
    const mine = versions.filter((v) => v.flowId === f.id);
    return {
      id: f.id, slug: f.slug, name: f.name, active: f.active, currentVersion: f.currentVersion,
      versions: mine.map((v, i) => ({ version: v.version, at: v.createdAt.toISOString(), definition: v.definition, changes: i ? diffDefinitions(mine[i - 1]!.definition, v.definition) : null })).reverse(),
    };
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new AppError('validation_failed', 'The definition is not valid JSON.', [{ field: 'definition', code: 'malformed_json', message: (err as Error).message }]);
  }
}

/** A new Template from a JSON definition, activated at once as a Flow with its slug (version 1). */
export async function createFlowFromJson(em: EntityManager, projectId: string, slug: string, name: string, text: string): Promise<string> {
  const raw = parseJson(text);
  // Refuse a bad or taken slug before anything is written (no orphan Template).
  if (!/^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$/.test(slug)) throw new AppError('validation_failed', 'Slugs are 3–64 lowercase letters, digits and dashes.', [{ field: 'slug', code: 'invalid_slug', message: 'invalid slug' }]);
  if (await em.findOne(Flow, { projectId, slug })) throw new AppError('conflict', `A Flow with slug "${slug}" already exists in this project.`, [{ field: 'slug', code: 'slug_taken', message: 'slug taken' }]);
  const label = name.trim().slice(0, 200) || slug;
  const template = await createTemplate(em, projectId, label, raw);
  return (await activateTemplate(em, projectId, template.id, slug, label)).flow.slug;
}

/**
 * Publishes version n+1 of a Flow from a definition typed as JSON (validated against the
 * primitives registry; errors name the field). Running Cases keep the version they recorded.
 */
export async function publishFromJson(em: EntityManager, projectId: string, slug: string, text: string): Promise<number> {
  const raw = parseJson(text);
  const flow = await em.findOne(Flow, { projectId, slug });
  if (!flow) throw new AppError('not_found', 'No such Flow.');
  const template = await createTemplate(em, projectId, `${flow.name} v${flow.currentVersion + 1}`, raw);
  return (await publishFlowVersion(em, projectId, slug, template.id)).version;
}
