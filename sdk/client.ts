/**
 * A small client for this service's machine API (Node ≥ 18 or any runtime with `fetch`; no
 * dependencies), with retries that cannot make a second verification.
 *
 *   import { createClient } from './client.js';
 *   const ivs = createClient({ baseUrl: 'https://verify.example.com', apiKey: process.env.IVS_KEY! });
 *   const v = await ivs.createVerification({
 *     accepted_documents: [{ country: 'MEX', types: ['passport'] }],
 *     reference: 'customer-123', return_url: 'https://shop.example.com/kyc/done',
 *   });
 *   // send v.onboarding_url (or v.short_url) to the applicant; the result comes by webhook, or:
 *   const now = await ivs.getVerification(v.id);
 *
 * Retries: a request that gets no answer (connection refused or reset, timeout), a 5xx or a 429 is
 * sent again, up to `retries` times (default 3) with exponential backoff and jitter (a 429's
 * `Retry-After` is honoured). Creates are retried only with an `Idempotency-Key`: the client makes
 * one per call (a random UUID) unless you pass your own — pass your own, stored with your record,
 * to be safe across process restarts too. The service answers a create sent again with the Case it
 * already made (`replayed: true`), never a second one.
 *
 * Errors: anything else is thrown as an `ApiError` carrying the problem+json body: `code` (stable,
 * e.g. `validation_failed`, `idempotency_key_reused`), `status`, and `errors[]` naming each field.
 */
import { randomUUID } from 'node:crypto';

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  /** Times a request is sent again after no answer, a 5xx or a 429 (default 3). */
  retries?: number;
  /** Per-attempt timeout in ms (default 30 000). */
  timeoutMs?: number;
  /** First backoff in ms, doubled each time, with jitter (default 500). */
  backoffMs?: number;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
}

export interface Problem { type?: string; title?: string; status: number; detail?: string; code: string; errors?: { field: string; code: string; message: string }[]; verification_id?: string }

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly problem: Problem;
  constructor(problem: Problem) {
    super(`${problem.status} ${problem.code}: ${problem.detail ?? problem.title ?? ''}`);
    this.name = 'ApiError';
    this.status = problem.status;
    this.code = problem.code;
    this.problem = problem;
  }
}

export interface AcceptedDocument { country: string; types: string[] }
export interface CreateVerificationBody {
  type?: 'kyc';
  accepted_documents: AcceptedDocument[];
  applicant?: { given_names?: string; surnames?: string; date_of_birth?: string; document_number?: string };
  reference?: string;
  locale?: 'en' | 'es' | 'pt';
  link_expires_in?: number;
  return_url?: string;
}
export interface CreatedVerification { id: string; type: 'kyc'; status: string; onboarding_url: string; short_url: string; expires_at: string; created_at: string }
export interface IntakeBody { payload: Record<string, unknown>; verifiee: { email: string }; claimed?: Record<string, unknown>; locale?: 'en' | 'es' | 'pt'; link_expires_in?: number; return_url?: string }
export interface IntakeResult { id: string; flow_id: string; flow_slug: string; flow_version_ref: number; status: string; onboarding_url: string; short_url: string; link: string }
/** The verification as `GET /v1/verifications/{id}` answers it (see the OpenAPI document for every field). */
export interface Verification { id: string; status: string; assessment?: string; confidence?: number; summary_reasons?: string[]; reference?: string; result?: unknown; [field: string]: unknown }
export interface ListQuery { limit?: number; cursor?: string; status?: string; assessment?: string; created_after?: string; created_before?: string; reference?: string }

/** What one call sends; `retryable` is false for a create without a key (it could make a second Case). */
interface Call { method: 'GET' | 'POST' | 'DELETE'; path: string; body?: unknown; headers?: Record<string, string>; retryable: boolean }

export function createClient(options: ClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const retries = options.retries ?? 3;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const backoffMs = options.backoffMs ?? 500;
  const doFetch = options.fetch ?? fetch;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  async function send<T>(call: Call): Promise<{ body: T; headers: Headers }> {
    for (let attempt = 0; ; attempt++) {
      let wait = backoffMs * 2 ** attempt * (0.5 + Math.random());
      let res: Response;
      try {
        res = await doFetch(`${base}${call.path}`, {
          method: call.method,
          headers: { 'x-api-key': options.apiKey, ...(call.body === undefined ? {} : { 'content-type': 'application/json' }), ...call.headers },
          body: call.body === undefined ? undefined : JSON.stringify(call.body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        // No answer: the request may or may not have been acted on.
        if (!call.retryable || attempt >= retries) throw err;
        await sleep(wait);
        continue;
      }
      const text = await res.text();
      if (res.ok) return { body: (text ? JSON.parse(text) : null) as T, headers: res.headers };
      const retryAfter = Number(res.headers.get('retry-after'));
      if (call.retryable && attempt < retries && (res.status >= 500 || res.status === 429)) {
        if (res.status === 429 && Number.isFinite(retryAfter) && retryAfter > 0) wait = retryAfter * 1000;
        await sleep(wait);
        continue;
      }
      let problem: Problem;
      try {
        problem = JSON.parse(text) as Problem;
      } catch {
        problem = { status: res.status, code: 'http_error', detail: text.slice(0, 200) };
      }
      throw new ApiError({ ...problem, status: problem.status ?? res.status, code: problem.code ?? 'http_error' });
    }
  }

  const create = async <T>(path: string, body: unknown, idempotencyKey: string | false | undefined) => {
    const key = idempotencyKey === false ? undefined : (idempotencyKey ?? randomUUID());
    const r = await send<T>({ method: 'POST', path, body, headers: key ? { 'idempotency-key': key } : {}, retryable: key !== undefined });
    return { ...r.body, replayed: r.headers.get('idempotent-replayed') === 'true' };
  };

  return {
    /**
     * `POST /v1/verifications`. `idempotencyKey`: your own key (recommended: one per customer
     * verification attempt, stored with it); omitted, one is made per call; `false`: none, and no retry.
     */
    createVerification: (body: CreateVerificationBody, opts: { idempotencyKey?: string | false } = {}) =>
      create<CreatedVerification>('/v1/verifications', { type: 'kyc', ...body }, opts.idempotencyKey),
    /** `POST /v1/flows/{slug}/intake`, with the same idempotency as `createVerification`. */
    runIntake: (slug: string, body: IntakeBody, opts: { idempotencyKey?: string | false } = {}) =>
      create<IntakeResult>(`/v1/flows/${encodeURIComponent(slug)}/intake`, body, opts.idempotencyKey),
    getVerification: async (id: string) => (await send<Verification>({ method: 'GET', path: `/v1/verifications/${encodeURIComponent(id)}`, retryable: true })).body,
    listVerifications: async (query: ListQuery = {}) => {
      const qs = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));
      return (await send<{ data: Verification[]; next_cursor: string | null }>({ method: 'GET', path: `/v1/verifications${qs.toString() ? `?${qs}` : ''}`, retryable: true })).body;
    },
    /** `DELETE /v1/verifications/{id}`: erases the PII; repeating it answers the same receipt, so it is retried. */
    eraseVerification: async (id: string) => (await send<{ id: string; status: 'erased'; erased_at: string; erased: { fields: string[]; files: number } }>({ method: 'DELETE', path: `/v1/verifications/${encodeURIComponent(id)}`, retryable: true })).body,
  };
}
