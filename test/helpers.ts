import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { inject } from 'vitest';

export const stack = () => inject('stack');

export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function api<T = any>(method: string, path: string, opts: { key?: string; json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {}): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers['x-api-key'] = opts.key;
  let body = opts.body;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  }
  const res = await fetch(`${stack().apiUrl}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* html or empty */
  }
  return { status: res.status, headers: res.headers, body: parsed as T };
}

export async function signup(name = 'test project'): Promise<{ projectId: string; key: string }> {
  const r = await api('POST', '/v1/signup', { json: { name } });
  if (r.status !== 201) throw new Error(`signup failed: ${r.status} ${JSON.stringify(r.body)}`);
  return { projectId: r.body.project_id, key: r.body.api_key };
}

export const SAMPLE_APPLICANT = { given_names: 'ANA LUISA', surnames: 'PRUEBA EJEMPLO', date_of_birth: '1990-03-15', document_number: 'G12345678' };

export async function createVerification(key: string, extra: Record<string, unknown> = {}) {
  const r = await api('POST', '/v1/verifications', {
    key,
    json: { type: 'kyc', accepted_documents: [{ country: 'MEX', types: ['passport', 'national_id'] }], applicant: SAMPLE_APPLICANT, ...extra },
  });
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { id: string; onboarding_url: string; short_url: string; expires_at: string };
}

export const tokenOf = (onboardingUrl: string): string => new URL(onboardingUrl).pathname.split('/').pop()!;

/** A small real JPEG (a card-like image) for tests that need any valid image. */
export async function sampleJpeg(width = 640, height = 400, hue = 40): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="hsl(${hue},40%,80%)"/><rect x="20" y="20" width="${width / 4}" height="${height / 2}" fill="#888"/><text x="${width / 3}" y="80" font-size="28" font-family="sans-serif">SPECIMEN</text></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

export async function upload(token: string, kind: string, file: Buffer, filename = 'capture.jpg', meta?: unknown): Promise<JsonResponse> {
  const form = new FormData();
  form.append('kind', kind);
  if (meta !== undefined) form.append('meta', JSON.stringify(meta));
  form.append('file', new Blob([new Uint8Array(file)]), filename);
  return api('POST', `/o/${token}/uploads`, { body: form });
}

/** Several liveness frames in one request, as the hosted page sends them: per frame `meta`, then `file`. */
export async function uploadFrames(token: string, frames: ReadonlyArray<{ file: Buffer; meta?: unknown }>): Promise<JsonResponse> {
  const form = new FormData();
  frames.forEach((f, i) => {
    if (f.meta !== undefined) form.append('meta', typeof f.meta === 'string' ? f.meta : JSON.stringify(f.meta));
    form.append('file', new Blob([new Uint8Array(f.file)]), `frame-${i}.jpg`);
  });
  return api('POST', `/o/${token}/frames`, { body: form });
}

export async function submit(token: string, document = { country: 'MEX', type: 'passport' }): Promise<JsonResponse> {
  return api('POST', `/o/${token}/submit`, { json: { document } });
}

export async function waitFor<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 60_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function waitForStatus(key: string, id: string, statuses: string[], timeoutMs = 90_000) {
  return waitFor(async () => {
    const r = await api('GET', `/v1/verifications/${id}`, { key });
    return statuses.includes(r.body.status) ? r.body : null;
  }, timeoutMs);
}

export interface ReceivedHook {
  at: number;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
}

/** A real HTTP receiver on loopback; `respond` decides each answer (status, or 'hang'). */
export async function webhookReceiver(respond: (n: number) => number | 'hang' = () => 200) {
  const received: ReceivedHook[] = [];
  const hanging: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ at: Date.now(), headers: req.headers, raw: Buffer.concat(chunks) });
      const answer = respond(received.length);
      if (answer === 'hang') {
        hanging.push(res);
        return;
      }
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks/ivs`,
    received,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Direct SQL against the test database, for assertions the API cannot make (PII columns, counts). */
export async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: stack().databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

export async function countRows(table: string, where = 'true', params: unknown[] = []): Promise<number> {
  const rows = await sql<{ n: string }>(`select count(*)::text as n from ${table} where ${where}`, params);
  return Number(rows[0]!.n);
}
