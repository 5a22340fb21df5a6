import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { REPO_ROOT } from './paths.js';

/**
 * The one place the environment is read. api, worker, scripts and tests all get the same typed
 * config. Secrets have no fallbacks in code: in development they are generated once into
 * `.data/dev-secrets.json` (gitignored); production refuses to start without them.
 */
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000 } as const;
const rateSpec = z.string().regex(/^\d{1,9}\/\d{0,4}[smh]$/, 'a rate such as 600/10m').transform((v) => {
  const [, max, n, unit] = /^(\d+)\/(\d*)([smh])$/.exec(v)!;
  return { max: Number(max), windowMs: Number(n || 1) * UNIT_MS[unit as keyof typeof UNIT_MS] };
});
export type RateLimit = { max: number; windowMs: number };

const ZEnv = z.object({
  SERVICE_MODE: z.enum(['development', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_BASE_URL: z.string().url().optional(),
  DATABASE_URL: z.string().optional(),
  TEMPORAL_ADDRESS: z.string().default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('cases'),
  TEMPORAL_UI_URL: z.string().default('http://127.0.0.1:8233'),
  /**
   * TLS to the Temporal frontend (Temporal Cloud, a self-hosted server with TLS): on when any of the
   * files or an API key is given, unless TEMPORAL_TLS=false. mTLS: cert and key files (PEM) together.
   */
  TEMPORAL_TLS: z.enum(['true', 'false']).optional(),
  TEMPORAL_TLS_CERT_FILE: z.string().optional(),
  TEMPORAL_TLS_KEY_FILE: z.string().optional(),
  TEMPORAL_TLS_CA_FILE: z.string().optional(),
  TEMPORAL_TLS_SERVER_NAME: z.string().optional(),
  /** Temporal Cloud API key (instead of client certificates). */
  TEMPORAL_API_KEY: z.string().optional(),
  DATA_DIR: z.string().default(path.join(REPO_ROOT, '.data')),
  BLOB_DIR: z.string().optional(),
  /** 32 bytes, hex or base64: encrypts blobs at rest. */
  BLOB_ENCRYPTION_KEY: z.string().optional(),
  /** 32 bytes, hex or base64: encrypts webhook signing secrets at rest. */
  SECRETS_ENCRYPTION_KEY: z.string().optional(),
  SESSION_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  LINK_TTL_SECONDS: z.coerce.number().int().min(5).max(30 * 86_400).default(7 * 86_400),
  UPLOAD_MAX_BYTES: z.coerce.number().int().min(1024).default(10 * 1024 * 1024),
  UPLOAD_MAX_PIXELS: z.coerce.number().int().min(1000).default(40_000_000),
  UPLOAD_MAX_FILES: z.coerce.number().int().min(3).default(120),
  /**
   * Liveness frames in one `POST /o/{token}/frames` request (their bytes together at most
   * UPLOAD_MAX_BYTES). A Case's 53 frames as 7 requests instead of 53: each request costs the api a
   * session lookup, a row lock and a rate-limit count (issue 18). At least 8: the hosted page sends
   * groups of 8 (hosted/capture.js FRAMES_PER_REQUEST), and a lower bound would fail every selfie.
   */
  UPLOAD_MAX_FRAMES_PER_REQUEST: z.coerce.number().int().min(8).max(64).default(16),
  /**
   * Longest the upload answer waits for capture advice before answering without it (`unavailable`).
   * Measured p95 is under 1 s on an idle 2-core machine; the test stack raises it because its
   * shared machine runs several suites at once (tests check what the advice says, the bench how fast).
   */
  CAPTURE_ADVICE_DEADLINE_MS: z.coerce.number().int().min(100).max(60_000).default(2500),
  /** How long a regenerated webhook secret keeps signing deliveries beside the new one (0 = not at all). */
  WEBHOOK_SECRET_GRACE_SECONDS: z.coerce.number().int().min(0).max(30 * 86_400).default(86_400),
  /**
   * 'on': an event whose 3 attempts all failed is delivered again later (30 s, 1, 2, 5, 10, 30 min,
   * 1 h; workflows/case-workflow.ts), each time with the same 3-attempt profile. 'off': one delivery
   * only, as the spec's best-effort minimum (polling is then the only fallback).
   */
  WEBHOOK_REDELIVERY: z.enum(['on', 'off']).default('on'),
  // The worker's engines each in a worker thread of their own (engine/engine-thread.ts); `off` runs them on the event loop.
  ENGINE_THREADS: z.enum(['on', 'off']).default('on'),
  /**
   * Whose X-Forwarded-For to believe for the client IP (per-IP limits): 'true' (every hop), a hop
   * count, or comma-separated proxy addresses. Default: every hop in production, none otherwise.
   */
  TRUST_PROXY: z.string().regex(/^(true|false|\d{1,2}|[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*)$/).optional(),
  /** Abuse limits, `<max>/<window>` with the window in s, m or h (api/plugins/abuse-limits.ts). */
  RATE_LIMITS_ENABLED: z.enum(['true', 'false']).default('true'),
  RATE_LIMIT_API_KEY: rateSpec.prefault('1200/1m'),
  RATE_LIMIT_ANONYMOUS: rateSpec.prefault('300/1m'),
  RATE_LIMIT_CAPTURE_TOKEN: rateSpec.prefault('600/10m'),
  // The hosted page's live preview frames (at most 4 a second while the camera is on).
  RATE_LIMIT_CAPTURE_PREVIEW: rateSpec.prefault('300/1m'),
  RATE_LIMIT_SHORT_LINK: rateSpec.prefault('60/1m'),
  RATE_LIMIT_SIGNUP: rateSpec.prefault('20/1h'),
  RATE_LIMIT_SIGN_IN: rateSpec.prefault('30/10m'),
  /** Dashboard sign-in. Unset issuer/base URLs mean the real Google and GitHub. */
  GOOGLE_ISSUER: z.string().url().default('https://accounts.google.com'),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GITHUB_OAUTH_BASE: z.string().url().default('https://github.com'),
  GITHUB_API_BASE: z.string().url().default('https://api.github.com'),
  GITHUB_CLIENT_ID: z.string().optional(),
  GITHUB_CLIENT_SECRET: z.string().optional(),
  /** Set by the stack when it started the local stand-ins (platform/auth-standins.ts). */
  AUTH_STANDINS: z.string().optional(),
  NODE_ENV: z.string().optional(),
  DASHBOARD_SESSION_IDLE_SECONDS: z.coerce.number().int().min(60).default(8 * 3600),
  DASHBOARD_SESSION_ABSOLUTE_SECONDS: z.coerce.number().int().min(60).default(7 * 86_400),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface AppConfig {
  mode: 'development' | 'production';
  port: number;
  host: string;
  publicBaseUrl: string;
  databaseUrl: string | undefined;
  temporal: { address: string; namespace: string; taskQueue: string; uiUrl: string; tls: TemporalTls | null; apiKey: string | undefined };
  dataDir: string;
  blobDir: string;
  blobKey: Buffer;
  secretsKey: Buffer;
  sessionTokenTtlSeconds: number;
  linkTtlSeconds: number;
  uploads: { maxBytes: number; maxPixels: number; maxFiles: number; maxFramesPerRequest: number };
  captureAdvice: { deadlineMs: number };
  webhookSecretGraceSeconds: number;
  webhookRedelivery: boolean;
  engineThreads: boolean;
  trustProxy: boolean | number | string;
  rateLimits: {
    enabled: boolean;
    apiKey: RateLimit;
    anonymous: RateLimit;
    captureToken: RateLimit;
    capturePreview: RateLimit;
    shortLink: RateLimit;
    signup: RateLimit;
    signIn: RateLimit;
  };
  logLevel: z.infer<typeof ZEnv>['LOG_LEVEL'];
  auth: AuthConfig;
}

/** Paths, read when connecting (platform/temporal-client.ts). */
export interface TemporalTls { certFile?: string; keyFile?: string; caFile?: string; serverName?: string }

function temporalTls(e: z.infer<typeof ZEnv>): TemporalTls | null {
  if (Boolean(e.TEMPORAL_TLS_CERT_FILE) !== Boolean(e.TEMPORAL_TLS_KEY_FILE)) throw new Error('TEMPORAL_TLS_CERT_FILE and TEMPORAL_TLS_KEY_FILE go together (mTLS)');
  const any = e.TEMPORAL_TLS_CERT_FILE || e.TEMPORAL_TLS_CA_FILE || e.TEMPORAL_TLS_SERVER_NAME || e.TEMPORAL_API_KEY;
  if (e.TEMPORAL_TLS === 'false') {
    // An API key or a client certificate over plain text would be sent in the clear.
    if (e.TEMPORAL_API_KEY || e.TEMPORAL_TLS_CERT_FILE) throw new Error('TEMPORAL_TLS=false refuses TEMPORAL_API_KEY and client certificates');
    return null;
  }
  if (e.TEMPORAL_TLS !== 'true' && !any) return null;
  return { certFile: e.TEMPORAL_TLS_CERT_FILE, keyFile: e.TEMPORAL_TLS_KEY_FILE, caFile: e.TEMPORAL_TLS_CA_FILE, serverName: e.TEMPORAL_TLS_SERVER_NAME };
}

export interface OAuthClientConfig { clientId: string; clientSecret: string }
export interface AuthConfig {
  google: { issuer: string; client: OAuthClientConfig | null };
  github: { oauthBase: string; apiBase: string; client: OAuthClientConfig | null };
  /** The local stand-ins are in use (never in production). */
  standins: boolean;
  /** `__Host-` prefix and Secure in production; plain name over http in development. */
  cookieName: string;
  secureCookies: boolean;
  idleSeconds: number;
  absoluteSeconds: number;
}

const isLoopbackOrHttp = (raw: string): boolean => {
  const u = new URL(raw);
  return u.protocol !== 'https:' || ['127.0.0.1', 'localhost', '[::1]', '0.0.0.0'].includes(u.hostname);
};

/** Production signs in only with the real providers: client ids and secrets, https, no stand-in. */
function authConfig(e: z.infer<typeof ZEnv>): AuthConfig {
  const production = e.SERVICE_MODE === 'production';
  const client = (id?: string, secret?: string) => (id && secret ? { clientId: id, clientSecret: secret } : null);
  // NODE_ENV=production without SERVICE_MODE=production is a misconfiguration, never a licence for stand-ins.
  if (e.AUTH_STANDINS && e.NODE_ENV === 'production') throw new Error('NODE_ENV=production refuses the local sign-in stand-ins (AUTH_STANDINS is set)');
  if (production) {
    const missing = ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET', 'GITHUB_CLIENT_ID', 'GITHUB_CLIENT_SECRET'].filter((k) => !e[k as keyof typeof e]);
    if (missing.length) throw new Error(`production mode requires ${missing.join(', ')} (dashboard sign-in)`);
    if (e.AUTH_STANDINS) throw new Error('production mode refuses the local sign-in stand-ins (AUTH_STANDINS is set)');
    const local = (['GOOGLE_ISSUER', 'GITHUB_OAUTH_BASE', 'GITHUB_API_BASE'] as const).filter((k) => isLoopbackOrHttp(e[k]));
    if (local.length) throw new Error(`production mode refuses sign-in providers that are not https on a public host: ${local.join(', ')}`);
  }
  return {
    google: { issuer: e.GOOGLE_ISSUER.replace(/\/$/, ''), client: client(e.GOOGLE_CLIENT_ID, e.GOOGLE_CLIENT_SECRET) },
    github: { oauthBase: e.GITHUB_OAUTH_BASE.replace(/\/$/, ''), apiBase: e.GITHUB_API_BASE.replace(/\/$/, ''), client: client(e.GITHUB_CLIENT_ID, e.GITHUB_CLIENT_SECRET) },
    standins: !production && Boolean(e.AUTH_STANDINS),
    cookieName: production ? '__Host-ivs_session' : 'ivs_session',
    secureCookies: production,
    idleSeconds: e.DASHBOARD_SESSION_IDLE_SECONDS,
    absoluteSeconds: e.DASHBOARD_SESSION_ABSOLUTE_SECONDS,
  };
}

function parseKey(name: string, value: string): Buffer {
  const buf = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (buf.length !== 32) throw new Error(`${name} must be 32 bytes (64 hex characters or base64)`);
  return buf;
}

function devSecrets(dataDir: string): { blobKey: string; secretsKey: string } {
  const file = path.join(dataDir, 'dev-secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  mkdirSync(dataDir, { recursive: true });
  const secrets = { blobKey: randomBytes(32).toString('hex'), secretsKey: randomBytes(32).toString('hex') };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

function parseTrustProxy(v: string | undefined, production: boolean): boolean | number | string {
  if (v === undefined) return production;
  if (v === 'true' || v === 'false') return v === 'true';
  return /^\d+$/.test(v) ? Number(v) : v;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = ZEnv.safeParse(env);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid environment: ${fields}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  let blobKey = e.BLOB_ENCRYPTION_KEY;
  let secretsKey = e.SECRETS_ENCRYPTION_KEY;
  if (e.SERVICE_MODE === 'production') {
    const missing = ['DATABASE_URL', 'BLOB_ENCRYPTION_KEY', 'SECRETS_ENCRYPTION_KEY', 'PUBLIC_BASE_URL'].filter((k) => !env[k]);
    if (missing.length) throw new Error(`production mode requires ${missing.join(', ')}`);
  } else if (!blobKey || !secretsKey) {
    const dev = devSecrets(dataDir);
    blobKey ??= dev.blobKey;
    secretsKey ??= dev.secretsKey;
  }
  return {
    mode: e.SERVICE_MODE,
    port: e.PORT,
    host: e.HOST,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://127.0.0.1:${e.PORT}`).replace(/\/$/, ''),
    databaseUrl: e.DATABASE_URL,
    temporal: { address: e.TEMPORAL_ADDRESS, namespace: e.TEMPORAL_NAMESPACE, taskQueue: e.TEMPORAL_TASK_QUEUE, uiUrl: e.TEMPORAL_UI_URL, tls: temporalTls(e), apiKey: e.TEMPORAL_API_KEY },
    dataDir,
    blobDir: path.resolve(e.BLOB_DIR ?? path.join(dataDir, 'blobs')),
    blobKey: parseKey('BLOB_ENCRYPTION_KEY', blobKey!),
    secretsKey: parseKey('SECRETS_ENCRYPTION_KEY', secretsKey!),
    sessionTokenTtlSeconds: e.SESSION_TOKEN_TTL_SECONDS,
    linkTtlSeconds: e.LINK_TTL_SECONDS,
    uploads: { maxBytes: e.UPLOAD_MAX_BYTES, maxPixels: e.UPLOAD_MAX_PIXELS, maxFiles: e.UPLOAD_MAX_FILES, maxFramesPerRequest: e.UPLOAD_MAX_FRAMES_PER_REQUEST },
    captureAdvice: { deadlineMs: e.CAPTURE_ADVICE_DEADLINE_MS },
    webhookSecretGraceSeconds: e.WEBHOOK_SECRET_GRACE_SECONDS,
    webhookRedelivery: e.WEBHOOK_REDELIVERY === 'on',
    engineThreads: e.ENGINE_THREADS === 'on',
    trustProxy: parseTrustProxy(e.TRUST_PROXY, e.SERVICE_MODE === 'production'),
    rateLimits: {
      enabled: e.RATE_LIMITS_ENABLED === 'true',
      apiKey: e.RATE_LIMIT_API_KEY,
      anonymous: e.RATE_LIMIT_ANONYMOUS,
      captureToken: e.RATE_LIMIT_CAPTURE_TOKEN,
      capturePreview: e.RATE_LIMIT_CAPTURE_PREVIEW,
      shortLink: e.RATE_LIMIT_SHORT_LINK,
      signup: e.RATE_LIMIT_SIGNUP,
      signIn: e.RATE_LIMIT_SIGN_IN,
    },
    logLevel: e.LOG_LEVEL,
    auth: authConfig(e),
  };
}
