import { describe, expect, it } from 'vitest';
import { createOrm } from '../../db/orm.js';
import { ZCaseResult } from '../../domain/case-result.js';
import { MIGRATIONS } from '../../migrations/index.js';
import { sql, stack } from '../helpers.js';

/**
 * Entities hold related ids as scalar columns (no ORM relations: services query by id), so the
 * schema generator does not know the foreign keys and the role/status check constraints that the
 * migrations add, and would drop them. Those statements, and only those, are not drift; the
 * foreign keys are proved by the coverage test below instead.
 */
const MIGRATION_ONLY_CONSTRAINT = /^alter table "\w+" drop constraint "\w+_(foreign|check)";$/;

/** What the entities would still change on a database: MikroORM's schema diff, as SQL. */
async function driftOf(databaseUrl: string): Promise<string> {
  const orm = await createOrm(databaseUrl);
  try {
    const diff = await orm.schema.getUpdateSchemaSQL({ wrap: false, safe: false, dropTables: true });
    return diff.split('\n').map((l) => l.trim()).filter((l) => l && !MIGRATION_ONLY_CONSTRAINT.test(l)).join('\n');
  } finally {
    await orm.close();
  }
}

describe('schema drift: the committed migrations produce the entities\' schema', () => {
  it('the schema generator finds nothing to change on the database the migrations built', async () => {
    // The global setup migrated this real PostgreSQL with every committed migration.
    expect(await driftOf(stack().databaseUrl)).toBe('');
  });

  it('and it does find a difference when a migration is missing (the check can fail)', async () => {
    const name = `drift_probe_${Date.now()}`;
    await sql(`create database ${name}`);
    const url = new URL(stack().databaseUrl);
    url.pathname = `/${name}`;
    try {
      const orm = await createOrm(url.toString());
      await orm.migrator.up({ to: MIGRATIONS[0]!.name }); // the first migration only: no flows yet
      await orm.close();
      expect(await driftOf(url.toString())).toMatch(/create table "flow/);
    } finally {
      await sql(`drop database if exists ${name} with (force)`);
    }
  });

  it('rewrites results stored before the one result shape (expired and assessed) into it', async () => {
    const name = `result_shape_${Date.now()}`;
    await sql(`create database ${name}`);
    const url = new URL(stack().databaseUrl);
    url.pathname = `/${name}`;
    try {
      const orm = await createOrm(url.toString());
      await orm.migrator.up({ to: 'Migration20261121203341_flows' });
      const conn = orm.em.getConnection();
      // Rows as the code before the one result shape wrote them (a project first: later migrations add foreign keys).
      await conn.execute("insert into projects (id, name, sandbox, webhook_include_result, created_at, updated_at) values ('prj_x', 'p', true, false, now(), now())");
      const row = (id: string, assessment: string, confidence: number, reasons: string[], result: unknown) =>
        conn.execute(
          `insert into verifications (id, project_id, type, status, accepted_documents, engine_profile, policy_revision, workflow_id, link_code_hash, link_expires_at, assessment, confidence, summary_reasons, result, created_at, updated_at)
           values (?, 'prj_x', 'kyc', 'completed', '[]', 'ep-2026.11-1', 'dp-2026.11-1', ?, ?, now(), ?, ?, ?, ?, now(), now())`,
          [id, `case-${id}`, id.padEnd(64, '0'), assessment, confidence, JSON.stringify(reasons), JSON.stringify(result)],
        );
      await row('ver_expired', 'assessment_incomplete', 0, ['capture_expired'], { checks: {}, decision: { policy_revision: 'dp-2026.11-1', engine_profile: 'ep-2026.11-1', capture_expired: true } });
      const check = { status: 'passed', reasons: [], score: 0.9, component: 'document-engine@1', models: [], duration_ms: 5, evidence: {} };
      await row('ver_assessed', 'no_material_concerns', 0.9, [], {
        assessment: 'no_material_concerns', confidence: 0.9, summary_reasons: [], document: { country: 'MOZ', type: 'national_id' }, checks: { document_ocr: check },
        decision: { policy_revision: 'dp-2026.11-1', engine_profile: 'ep-2026.11-1', flow_version_ref: null },
      });
      await orm.migrator.up();
      const rows = await conn.execute<{ id: string; result: unknown }[]>('select id, result from verifications order by id');
      await orm.close();
      const parsed = Object.fromEntries(rows.map((r) => [r.id, ZCaseResult.parse(r.result)]));
      expect(parsed.ver_expired).toMatchObject({ basis: 'capture_expired', assessment: 'assessment_incomplete', summary_reasons: ['capture_expired'], document: null, checks: {}, decision: { capture_expired: true, flow_version_ref: null } });
      expect(parsed.ver_assessed).toMatchObject({ basis: 'checks', assessment: 'no_material_concerns', document: { country: 'MOZ' }, checks: { document_ocr: check }, decision: { capture_expired: false } });
    } finally {
      await sql(`drop database if exists ${name} with (force)`);
    }
  });

  it('every column that names another table\'s row has a foreign key', async () => {
    // `<table>_id` columns (and actor/accepted/invited-by user ids) reference rows; each must be
    // backed by a constraint so a dangling id cannot be written.
    const rows = await sql<{ table_name: string; column_name: string; has_fk: boolean }>(`
      select c.table_name, c.column_name,
        exists (
          select 1 from information_schema.key_column_usage k
          join information_schema.table_constraints t on t.constraint_name = k.constraint_name and t.table_name = k.table_name
          where t.constraint_type = 'FOREIGN KEY' and k.table_name = c.table_name and k.column_name = c.column_name
        ) as has_fk
      from information_schema.columns c
      join information_schema.tables tb on tb.table_name = c.table_name and tb.table_schema = c.table_schema
      where c.table_schema = 'public' and tb.table_type = 'BASE TABLE' and c.column_name like '%\\_id' and c.table_name <> 'mikro_orm_migrations'
      order by 1, 2`);
    // Not row references: a Temporal workflow id, and the audit log's polymorphic target (a key,
    // a member, an invitation...) that must outlive the row it names.
    const notReferences = new Set(['verifications.workflow_id', 'audit_events.target_id']);
    const missing = rows.filter((r) => !r.has_fk && !notReferences.has(`${r.table_name}.${r.column_name}`)).map((r) => `${r.table_name}.${r.column_name}`);
    expect(rows.length).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });
});
