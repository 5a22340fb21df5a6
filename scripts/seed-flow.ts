/**
 * `npm run seed:flow -- --project prj_… --slug onboarding --template flow.json [--name "…"]`
 * Creates a Template from a JSON definition (see GET /v1/primitives) and activates it as a Flow,
 * or, when the slug already exists, publishes it as the Flow's next version. Until the dashboard's
 * Build screen lands this is how Templates are authored.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createOrm } from '../db/orm.js';
import { Flow } from '../db/entities/index.js';
import { loadConfig } from '../platform/config.js';
import { activateTemplate, createTemplate, publishFlowVersion } from '../services/flows.js';

const { values } = parseArgs({ options: { project: { type: 'string' }, slug: { type: 'string' }, template: { type: 'string' }, name: { type: 'string' } } });
if (!values.project || !values.slug || !values.template) {
  console.error('usage: npm run seed:flow -- --project <project_id> --slug <slug> --template <definition.json> [--name <name>]');
  process.exit(2);
}
const config = loadConfig();
if (!config.databaseUrl) throw new Error('set DATABASE_URL (npm start prints the stack; the embedded one is postgresql://postgres:postgres@127.0.0.1:54329/ivs)');
const orm = await createOrm(config.databaseUrl);
try {
  const em = orm.em.fork();
  const definition = JSON.parse(readFileSync(values.template, 'utf8'));
  const template = await createTemplate(em, values.project, values.name ?? values.slug, definition);
  const existing = await em.findOne(Flow, { projectId: values.project, slug: values.slug });
  if (existing) {
    const v = await publishFlowVersion(em, values.project, values.slug, template.id);
    console.log(`published ${values.slug} version ${v.version} (template ${template.id})`);
  } else {
    const { flow } = await activateTemplate(em, values.project, template.id, values.slug, values.name);
    console.log(`activated ${flow.slug} (${flow.id}) version 1 (template ${template.id})`);
  }
} finally {
  await orm.close();
}
