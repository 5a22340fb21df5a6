import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../engine/assets.js';
import { createOrm } from '../../db/orm.js';
import { stack, sql } from '../helpers.js';

/**
 * The dashboard migration on a database filled the old way: run the migrations before it, insert
 * rows as the old code wrote them (no orgs), then migrate. Every row survives, each project lands in
 * its own org, foreign keys hold, and grant-owner makes an operator the owner of an adopted org.
 */
const DB = `adopt_${Date.now()}`;
let url: string;

beforeAll(async () => {
  await sql(`create database ${DB}`);
  const u = new URL(stack().databaseUrl);
  u.pathname = `/${DB}`;
  url = u.toString();
});

afterAll(async () => {
  await sql(`drop database if exists ${DB} with (force)`);
});

async function q(text: string, params: unknown[] = []) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, params)).rows;
  } finally {
    await c.end();
  }
}

describe('dashboard migration adopts existing projects', () => {
  it('keeps every row, gives each project its own org, adds foreign keys, and grant-owner works', async () => {
    const orm = await createOrm(url);
    await orm.migrator.up({ to: 'Migration20261121203341_flows' });
    const now = new Date().toISOString();
    const projects = ['prj_01KAAAAAAAAAAAAAAAAAAAAAAA', 'prj_01KBBBBBBBBBBBBBBBBBBBBBBB'];
    for (const [i, id] of projects.entries()) {
      await q(`insert into projects (id, name, sandbox, webhook_url, webhook_include_result, created_at, updated_at) values ($1, $2, true, 'https://example.test/h', false, $3, $3)`, [id, `Old project ${i}`, now]);
      await q(`insert into api_keys (id, project_id, name, prefix, hash, created_at) values ($1, $2, 'default', 'ivs_test_x', $3, $4)`, [`key_0${i}`, id, `${i}`.repeat(64), now]);
      await q(`insert into templates (id, project_id, name, definition, created_at) values ($1, $2, 't', '{}', $3)`, [`tpl_0${i}`, id, now]);
      await q(`insert into flows (id, project_id, slug, name, active, current_version, created_at, updated_at) values ($1, $2, 'kyc', 'KYC', true, 1, $3, $3)`, [`flw_0${i}`, id, now]);
      await q(`insert into flow_versions (id, flow_id, version, template_id, definition, created_at) values ($1, $2, 1, $3, '{}', $4)`, [`flv_0${i}`, `flw_0${i}`, `tpl_0${i}`, now]);
      await q(`insert into verifications (id, project_id, type, status, accepted_documents, engine_profile, policy_revision, workflow_id, link_code_hash, link_expires_at, created_at, updated_at, flow_id, flow_version_ref)
        values ($1, $2, 'kyc', 'pending', '[]', 'ep', 'dp', $1, $3, $4, $4, $4, $5, 1)`, [`ver_0${i}`, id, `h${i}`.repeat(32), now, `flw_0${i}`]);
      await q(`insert into capture_sessions (id, verification_id, token_hash, expires_at, created_at) values ($1, $2, $3, $4, $4)`, [`ses_0${i}`, `ver_0${i}`, `t${i}`.repeat(32), now]);
      await q(`insert into check_results (id, verification_id, "check", status, reasons, component, models, evidence, duration_ms, created_at) values ($1, $2, 'liveness', 'passed', '[]', 'c', '[]', '{}', 1, $3)`, [`chk_0${i}`, `ver_0${i}`, now]);
      await q(`insert into uploads (id, verification_id, kind, blob_key, sha256, size_bytes, mime, width, height, created_at) values ($1, $2, 'document_front', 'b', $3, 1, 'image/jpeg', 1, 1, $4)`, [`upl_0${i}`, `ver_0${i}`, 'a'.repeat(64), now]);
      await q(`insert into webhook_deliveries (id, verification_id, project_id, event, delivery_key, attempt, url_origin, duration_ms, created_at) values ($1, $2, $3, 'verification.completed', 'k', 1, 'https://example.test', 1, $4)`, [`whd_0${i}`, `ver_0${i}`, id, now]);
    }
    const tables = ['projects', 'api_keys', 'templates', 'flows', 'flow_versions', 'verifications', 'capture_sessions', 'check_results', 'uploads', 'webhook_deliveries'];
    const count = async () => Object.fromEntries(await Promise.all(tables.map(async (t) => [t, Number((await q(`select count(*)::int as n from ${t}`))[0].n)])));
    const before = await count();

    const applied = await orm.migrator.up();
    expect(applied.map((m) => m.name)).toContain('Migration20261124180000_dashboard');
    expect(await count()).toEqual(before);

    const rows = await q(`select p.id, p.name, p.org_id, o.name as org_name from projects p join orgs o on o.id = p.org_id order by p.id`);
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((r) => r.org_id)).size).toBe(2);
    expect(rows.map((r) => r.org_name)).toEqual(['Old project 0', 'Old project 1']);
    // the webhook config and keys are untouched
    expect((await q(`select count(*)::int as n from projects where webhook_url = 'https://example.test/h'`))[0].n).toBe(2);

    // Foreign keys on every table that references another.
    const fks = await q(`select conrelid::regclass::text as t, conname from pg_constraint where contype = 'f' order by 1, 2`);
    const fkTables = new Set(fks.map((r) => r.t));
    for (const t of ['projects', 'api_keys', 'verifications', 'capture_sessions', 'uploads', 'check_results', 'webhook_deliveries', 'templates', 'flows', 'flow_versions', 'memberships', 'invitations', 'identities', 'dashboard_sessions', 'audit_events']) {
      expect(fkTables.has(t), `${t} has a foreign key`).toBe(true);
    }
    await expect(q(`insert into api_keys (id, project_id, name, prefix, hash, created_at) values ('key_orphan', 'prj_missing', 'x', 'x', $1, now())`, ['f'.repeat(64)])).rejects.toThrow(/foreign key/);

    // The operator grants ownership of an adopted org.
    const out = execFileSync('npx', ['tsx', 'scripts/grant-owner.ts', 'Operator@Example.test', projects[0]!], { cwd: REPO_ROOT, env: { ...process.env, DATABASE_URL: url }, encoding: 'utf8' });
    expect(out).toContain(rows[0].org_id);
    const m = await q(`select m.role, u.email from memberships m join users u on u.id = m.user_id where m.org_id = $1`, [rows[0].org_id]);
    expect(m).toEqual([{ role: 'owner', email: 'operator@example.test' }]);
    expect((await q(`select action from audit_events where org_id = $1`, [rows[0].org_id])).map((r) => r.action)).toEqual(['member.owner_granted']);
    await orm.close();
  });
});
