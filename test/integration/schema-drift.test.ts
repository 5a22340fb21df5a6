import { describe, expect, it } from 'vitest';
import { createOrm } from '../../db/orm.js';
import { ZCaseResult } from '../../domain/case-result.js';
import { sql, stack } from '../helpers.js';

/** What the entities would still change on a database: MikroORM's schema diff, as SQL. */
async function driftOf(databaseUrl: string): Promise<string> {
  const orm = await createOrm(databaseUrl);
  try {
    return (await orm.schema.getUpdateSchemaSQL({ wrap: false, safe: false, dropTables: true })).trim();
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
      // Up to the liveness-challenge migration: the Flow tables are missing.
      await orm.migrator.up({ to: 'Migration20261121202531_liveness_challenge' });
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
});
