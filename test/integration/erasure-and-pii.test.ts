import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, countRows, createVerification, SAMPLE_APPLICANT, sampleJpeg, signup, sql, stack, submit, tokenOf, upload, waitForStatus } from '../helpers.js';
import { withTemporal } from '../temporal.js';

const PII_NEEDLES = [SAMPLE_APPLICANT.given_names, 'PRUEBA EJEMPLO', SAMPLE_APPLICANT.date_of_birth, '900315', SAMPLE_APPLICANT.document_number, 'applicant-ref-7731'];

async function completedCase() {
  const { key } = await signup();
  const v = await createVerification(key, { reference: 'applicant-ref-7731' });
  const token = tokenOf(v.onboarding_url);
  expect((await upload(token, 'document_front', await sampleJpeg())).status).toBe(201);
  expect((await upload(token, 'selfie', await sampleJpeg(300, 300, 10))).status).toBe(201);
  expect((await submit(token)).status).toBe(202);
  await waitForStatus(key, v.id, ['completed', 'failed']);
  await withTemporal((c) => c.workflow.getHandle(`case-${v.id}`).result());
  return { key, v };
}

const blobDir = (id: string) => path.join(stack().dataDir, 'blobs', id);

describe('PII stays out of Temporal and the logs', () => {
  it('the history of a completed Case holds no applicant name, date of birth, document number or reference', async () => {
    const { v } = await completedCase();
    const history = await withTemporal((c) => c.workflow.getHandle(`case-${v.id}`).fetchHistory());
    const text = JSON.stringify(history);
    expect(text).toContain(v.id); // the history is real and about this Case
    // payloads are base64 JSON inside the history: decode every one and search it too
    const decoded = [...text.matchAll(/"data":"([A-Za-z0-9+/=]+)"/g)].map((m) => Buffer.from(m[1]!, 'base64').toString('utf8')).join('\n');
    expect(decoded).toContain(v.id);
    for (const needle of PII_NEEDLES) {
      expect(text).not.toContain(needle);
      expect(decoded).not.toContain(needle);
    }
  });

  it('the api and worker logs hold none of it either', async () => {
    await completedCase();
    const logs = readFileSync(stack().logFile, 'utf8');
    expect(logs).toMatch(/case completed/);
    // The logger's own numbers (epoch-ms time, pid, request duration) can hold any six digits:
    // a line stamped 1795316900315 "contained" the MRZ birth date 900315. They never carry
    // request data, so they are left out of the search; every other field and non-JSON line stays.
    const searchable = logs
      .split('\n')
      .map((line) => {
        try {
          const { time: _time, pid: _pid, ms: _ms, ...rest } = JSON.parse(line) as Record<string, unknown>;
          return JSON.stringify(rest);
        } catch {
          return line;
        }
      })
      .join('\n');
    expect(searchable).toMatch(/case completed/);
    for (const needle of PII_NEEDLES) expect(searchable).not.toContain(needle);
    expect(logs).not.toMatch(/\/o\/[A-Za-z0-9_-]{20,}/); // capture tokens are credentials
    expect(logs).not.toMatch(/ivs_test_[A-Za-z0-9_-]{20,}/);
  });
});

describe('erasure', () => {
  it('removes every PII value and blob of a completed Case, keeps a PII-free tombstone, and repeats its receipt', async () => {
    const { key, v } = await completedCase();
    const blobs = readdirSync(blobDir(v.id)).length;
    expect(blobs).toBeGreaterThanOrEqual(2); // the two captures, plus what the checks derived from them
    const r = await api('DELETE', `/v1/verifications/${v.id}`, { key });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: v.id, status: 'erased', erased: { files: blobs } });
    expect(r.body.erased.fields).toEqual(expect.arrayContaining(['applicant', 'reference', 'result', 'uploads', 'check_evidence']));
    for (const needle of PII_NEEDLES) expect(JSON.stringify(r.body)).not.toContain(needle);

    const [row] = await sql('select * from verifications where id = $1', [v.id]);
    expect(row).toMatchObject({ status: 'erased', applicant: null, claimed: null, reference: null, result: null });
    expect(row!.assessment).toBe('assessment_incomplete'); // the tombstone keeps PII-free outcome codes
    for (const needle of PII_NEEDLES) expect(JSON.stringify(row)).not.toContain(needle);
    for (const table of ['uploads', 'check_results']) expect(await countRows(table, 'verification_id = $1', [v.id])).toBe(0);
    expect(existsSync(blobDir(v.id))).toBe(false);

    const again = await api('DELETE', `/v1/verifications/${v.id}`, { key });
    expect(again.body).toEqual(r.body);
    const view = await api('GET', `/v1/verifications/${v.id}`, { key });
    expect(view.body.status).toBe('erased');
    expect(view.body.result).toBeUndefined();
    expect(view.body.reference).toBeUndefined();
  });

  it('erases a Case that is still collecting, stops its workflow and closes its links', async () => {
    const { key } = await signup();
    const v = await createVerification(key);
    const token = tokenOf(v.onboarding_url);
    expect((await upload(token, 'document_front', await sampleJpeg())).status).toBe(201);
    const r = await api('DELETE', `/v1/verifications/${v.id}`, { key });
    expect(r.status).toBe(200);
    expect(r.body.erased.files).toBe(1);
    const status = await withTemporal(async (c) => (await c.workflow.getHandle(`case-${v.id}`).describe()).status.name);
    expect(status).toBe('TERMINATED');
    expect((await api('GET', `/o/${token}/session`)).status).toBe(410);
    expect((await fetch(v.short_url, { redirect: 'manual' })).status).toBe(410);
    expect(existsSync(blobDir(v.id))).toBe(false);
    const [row] = await sql('select applicant, reference from verifications where id = $1', [v.id]);
    expect(row).toEqual({ applicant: null, reference: null });
  });
});
