/**
 * `npm run fuzz [-- --seconds 100] [--url http://127.0.0.1:3000]`
 *
 * Schemathesis (PyPI, pinned in .ci/requirements.txt) over /v1/openapi.json against the real
 * stack: PostgreSQL, the Temporal dev server, the api and the worker as separate processes, on
 * scratch data unless --url is given. Property-based requests, valid and invalid, for every
 * documented operation including the capture API, bounded by --seconds (default 100; CI runs it
 * as is). It fails on any 5xx, any response outside its documented status codes, content type,
 * headers or schema. The service log is scanned for unhandled errors too.
 *
 * The schemathesis binary: SCHEMATHESIS_PATH, else `schemathesis` on PATH, else
 * .data/fuzz-venv/bin/schemathesis (python3 -m venv .data/fuzz-venv && .data/fuzz-venv/bin/pip
 * install -r .ci/requirements.txt -c .ci/constraints.txt).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../engine/assets.js';
import { startStack, type RunningStack } from './stack.js';
import { freePort } from '../platform/temporal-server.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '100' }, url: { type: 'string' }, seed: { type: 'string' } } });
const seconds = Number(values.seconds);
const seed = values.seed ?? String(Math.floor(Math.random() * 2 ** 31));

function schemathesisBinary(): string {
  if (process.env.SCHEMATHESIS_PATH) return process.env.SCHEMATHESIS_PATH;
  if (spawnSync('schemathesis', ['--version']).status === 0) return 'schemathesis';
  const venv = path.join(REPO_ROOT, '.data', 'fuzz-venv', 'bin', 'schemathesis');
  if (existsSync(venv)) return venv;
  throw new Error('schemathesis not found: python3 -m pip install -r .ci/requirements.txt -c .ci/constraints.txt (or set SCHEMATHESIS_PATH)');
}

const st = schemathesisBinary();
const reportDir = path.join(REPO_ROOT, '.data', 'fuzz-report');
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });
let stack: RunningStack | null = null;
let dataDir: string | null = null;
let apiUrl = values.url;
const logFile = path.join(reportDir, 'services.log');
if (!apiUrl) {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'ivs-fuzz-'));
  const apiPort = await freePort();
  stack = await startStack({
    dataDir, pgPort: await freePort(), temporalPort: await freePort(), apiPort, logFile,
    env: {
      LOG_LEVEL: 'info', PUBLIC_BASE_URL: `http://127.0.0.1:${apiPort}`,
      // The fuzzer is one client at full speed; limits are tested in test/integration/abuse-limits.test.ts.
      RATE_LIMIT_API_KEY: '10000000/1m', RATE_LIMIT_ANONYMOUS: '10000000/1m', RATE_LIMIT_SIGNUP: '10000000/1m', RATE_LIMIT_CAPTURE_TOKEN: '10000000/1m',
    },
  });
  apiUrl = stack.apiUrl;
}

let exitCode = 1;
try {
  const post = async (p: string, key: string | null, body: unknown) => {
    const r = await fetch(`${apiUrl}${p}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) }, body: JSON.stringify(body) });
    if (r.status >= 300) throw new Error(`${p}: ${r.status} ${await r.text()}`);
    return (await r.json()) as Record<string, string>;
  };
  const { api_key: key, project_id: projectId } = await post('/v1/signup', null, { name: 'fuzz' });
  const v = await post('/v1/verifications', key!, { type: 'kyc', accepted_documents: [{ country: 'MEX', types: ['passport', 'national_id'] }] });
  const token = new URL(v.onboarding_url!).pathname.split('/').pop()!;
  // A second Case for `{id}`: the first DELETE erases it, and the capture token above must outlive that.
  const other = await post('/v1/verifications', key!, { type: 'kyc', accepted_documents: [{ country: 'MOZ', types: ['national_id'] }] });

  // Real identifiers for path parameters so requests reach past the 404s.
  const config = path.join(reportDir, 'schemathesis.toml');
  writeFileSync(config, ['[parameters]', `"path.project_id" = "${projectId}"`, `"path.token" = "${token}"`, `"path.id" = "${other.id}"`, '"path.slug" = "sample-kyc"', ''].join('\n'));
  const args = [
    '--config-file', config, 'run', `${apiUrl}/v1/openapi.json`,
    '--checks', 'not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance',
    // Rotating the only key would turn the rest of the run into 401s; rotation has its own tests.
    '--exclude-path', '/v1/keys/rotate',
    '--header', `X-API-Key: ${key}`,
    '--max-time', String(seconds),
    '--seed', seed,
    // One worker: schemathesis's workers are threads, and on CPython 3.11.7 (this machine's python3)
    // two threads in ast.parse at once race on the AST converter's recursion counter
    // (CPython gh-106905): hypothesis parses a strategy's source to name its lambdas, and the race
    // ends that operation with "SystemError: AST constructor recursion depth mismatch" — a tool
    // error that fails the run without any request being wrong (seen in CI on 2026-11-28).
    '--workers', '1',
    '--request-timeout', '20',
    '--generation-database', 'none',
    '--report', 'junit,ndjson', '--report-dir', reportDir,
    '--no-color',
  ];
  console.log(`fuzz: ${st} ${args.join(' ').replace(key!, '<API_KEY>')}`);
  exitCode = await new Promise<number>((resolve) => {
    // schemathesis frames its sections and its closing line like pytest (`=== 2 warnings in 10s ===`).
    // CI log readers take such a line for pytest's verdict and read "no test ran"; the frames are
    // dropped and the closing words kept behind a `schemathesis:` prefix.
    const child = spawn(st, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const framed = /^=+ (.*) =+$/.exec(line);
      if (framed) console.log(`schemathesis: ${framed[1]}`);
      else if (/^=+$/.test(line)) console.log('');
      else console.log(line);
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
  const unhandled = readFileSync(logFile, 'utf8').split('\n').filter((l) => /"unhandled error"|response did not match its schema/.test(l));
  console.log(`fuzz: seed ${seed}; schemathesis exit ${exitCode}; unhandled errors in the service log: ${unhandled.length}`);
  for (const l of unhandled.slice(0, 10)) console.log(`  ${l.slice(0, 400)}`);
  if (unhandled.length) exitCode = exitCode || 1;
  console.log(`fuzz: reports in ${path.relative(REPO_ROOT, reportDir)}/`);
} finally {
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
