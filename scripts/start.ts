/**
 * `npm start`: the whole stack on embedded defaults, data under `.data/` (reused on the next
 * start). Ctrl-C stops every process this started.
 *
 * TEMPORAL=postgres runs a Temporal server on the same PostgreSQL (built once, see
 * scripts/temporal-postgres.ts) instead of the dev server; WORKERS=n and API_PROCESSES=n start more
 * than one worker and api process (the extra api processes listen on PORT+1, PORT+2, …).
 */
import path from 'node:path';
import { REPO_ROOT } from '../platform/paths.js';
import { loadConfig } from '../platform/config.js';
import { assertNode22 } from '../platform/node-version.js';
import { startStack } from './stack.js';

assertNode22();
const config = loadConfig();
const explicitTemporal = process.env.TEMPORAL_ADDRESS;
const temporalKind = process.env.TEMPORAL ?? 'dev';
if (temporalKind !== 'dev' && temporalKind !== 'postgres') throw new Error(`TEMPORAL must be dev or postgres, not ${temporalKind}`);
const count = (name: string) => {
  const n = Number(process.env[name] ?? 1);
  if (!Number.isInteger(n) || n < 1 || n > 16) throw new Error(`${name} must be a whole number from 1 to 16`);
  return n;
};
const apiProcesses = count('API_PROCESSES');
const stack = await startStack({
  dataDir: config.dataDir,
  databaseUrl: config.databaseUrl,
  pgPort: Number(process.env.EMBEDDED_PG_PORT ?? 54329),
  temporalAddress: explicitTemporal,
  temporalPort: Number(process.env.TEMPORAL_PORT ?? 7233),
  temporalUiPort: 8233,
  temporalDbFile: path.join(config.dataDir, 'temporal.sqlite'),
  temporal: temporalKind,
  temporalFixedPorts: true,
  apiPort: config.port,
  extraApiPorts: Array.from({ length: apiProcesses - 1 }, (_, i) => config.port + 1 + i),
  workers: count('WORKERS'),
  standinPorts: { google: Number(process.env.GOOGLE_STANDIN_PORT ?? 9411), github: Number(process.env.GITHUB_STANDIN_PORT ?? 9412) },
  log: (m) => console.log(`· ${m}`),
});

const base = config.publicBaseUrl;
console.log(`
Identity Verification Service is running (${config.mode} mode)
  API            ${base}/v1
  API docs       ${base}/v1/docs   (OpenAPI: ${base}/v1/openapi.json)
  Dashboard      ${base}/dashboard
  Temporal       ${stack.temporalAddress} (${stack.temporalKind === 'postgres' ? 'Temporal server on PostgreSQL' : stack.temporalKind === 'dev' ? 'dev server, SQLite' : 'external'}); ${stack.workers.length} worker(s), ${stack.apis.length} api process(es)${stack.apis.length > 1 ? `: ${stack.apiUrls.join(' ')}` : ''}
  Temporal UI    ${stack.temporalUiUrl ?? (stack.temporalKind === 'postgres' ? `${config.temporal.uiUrl} if you run one (docs/deployment.md: the PostgreSQL-backed server has no UI of its own)` : config.temporal.uiUrl)}
  Sign-in        ${stack.standins ? `local stand-ins: Google ${stack.standins.google.issuer}, GitHub ${stack.standins.github.oauthBase} (type any email)` : 'Google and GitHub'}
  Data           ${path.relative(REPO_ROOT, config.dataDir) || config.dataDir}
Try: curl -s -X POST ${base}/v1/signup
Press Ctrl-C to stop.
`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log('\nstopping…');
    void stack.stop().then(() => process.exit(0));
  });
}
