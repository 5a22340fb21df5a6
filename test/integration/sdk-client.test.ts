import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createClient } from '../../sdk/client.js';
import { countRows, SAMPLE_APPLICANT, signup, sql, stack } from '../helpers.js';

/**
 * sdk/client.ts against the real stack, through a proxy that loses answers on purpose: the create
 * reaches the service and commits, and the connection is cut before the answer reaches the client
 * (as a dying load balancer or a mobile network does), or the proxy answers 503 without forwarding.
 */
let proxy: http.Server;
let proxyUrl: string;
/** Faults to apply to the next POST /v1/verifications requests, in order. */
const faults: ('cut_after_commit' | 'answer_503')[] = [];
const seen: { path: string; key: string | undefined }[] = [];

beforeAll(async () => {
  proxy = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    seen.push({ path: req.url ?? '', key: req.headers['idempotency-key'] as string | undefined });
    const fault = req.method === 'POST' && req.url === '/v1/verifications' ? faults.shift() : undefined;
    if (fault === 'answer_503') {
      res.writeHead(503, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ status: 503, code: 'database_unavailable', detail: 'proxy' }));
      return;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
    const upstream = await fetch(`${stack().apiUrl}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const body = Buffer.from(await upstream.arrayBuffer());
    if (fault === 'cut_after_commit') {
      req.socket.destroy(); // the service answered; the client never hears it
      return;
    }
    const out: Record<string, string> = {};
    upstream.headers.forEach((v, k) => { if (k !== 'content-encoding' && k !== 'transfer-encoding' && k !== 'content-length') out[k] = v; });
    res.writeHead(upstream.status, out).end(body);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(() => proxy?.close());

const docs = [{ country: 'MEX', types: ['passport'] }];

describe('sdk/client.ts', () => {
  it('a create whose answer is lost after it committed is sent again with the same key and answers that Case: one Case', async () => {
    const { projectId, key } = await signup();
    const ivs = createClient({ baseUrl: proxyUrl, apiKey: key, backoffMs: 20 });
    seen.length = 0;
    faults.push('cut_after_commit');
    const v = await ivs.createVerification({ accepted_documents: docs, applicant: SAMPLE_APPLICANT, reference: 'crm-1' });
    expect(v.replayed).toBe(true);
    expect(await countRows('verifications', 'project_id = $1', [projectId])).toBe(1);
    const [row] = await sql<{ id: string }>('select id from verifications where project_id = $1', [projectId]);
    expect(v.id).toBe(row!.id);
    // Both attempts carried one key, made by the client.
    const creates = seen.filter((s) => s.path === '/v1/verifications');
    expect(creates).toHaveLength(2);
    expect(creates[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(creates[1]!.key).toBe(creates[0]!.key);
  });

  it('a 503 is sent again; a create without a key whose answer is lost is not (and shows why keys matter)', async () => {
    const { projectId, key } = await signup();
    const ivs = createClient({ baseUrl: proxyUrl, apiKey: key, backoffMs: 20 });
    faults.push('answer_503');
    const v = await ivs.createVerification({ accepted_documents: docs }, { idempotencyKey: 'crm-2-attempt-1' });
    expect(v.replayed).toBe(false);
    expect(await countRows('verifications', 'project_id = $1', [projectId])).toBe(1);
    faults.push('cut_after_commit');
    await expect(ivs.createVerification({ accepted_documents: docs }, { idempotencyKey: false })).rejects.toThrow();
    // It was made all the same; only the key would have let the client find it again.
    expect(await countRows('verifications', 'project_id = $1', [projectId])).toBe(2);
  });

  it('problems are ApiErrors with the code and the field; reads, lists by reference and erasure work', async () => {
    const { key } = await signup();
    const ivs = createClient({ baseUrl: stack().apiUrl, apiKey: key });
    const bad = await ivs.createVerification({ accepted_documents: [{ country: 'XX*', types: ['passport'] }] }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ApiError);
    expect((bad as ApiError).status).toBe(422);
    expect((bad as ApiError).problem.errors?.[0]?.field).toBe('accepted_documents.0.country');
    const reused = await ivs.createVerification({ accepted_documents: docs, reference: 'a' }, { idempotencyKey: 'k-1' })
      .then(() => ivs.createVerification({ accepted_documents: docs, reference: 'b' }, { idempotencyKey: 'k-1' }))
      .catch((e: unknown) => e);
    expect((reused as ApiError).code).toBe('idempotency_key_reused');
    const v = await ivs.createVerification({ accepted_documents: docs, reference: 'crm-3' });
    expect((await ivs.getVerification(v.id)).status).toBe('collecting');
    expect((await ivs.listVerifications({ reference: 'crm-3' })).data.map((x) => x.id)).toEqual([v.id]);
    const receipt = await ivs.eraseVerification(v.id);
    expect(receipt.status).toBe('erased');
    expect(await ivs.eraseVerification(v.id)).toEqual(receipt);
  });
});
