/**
 * `npm start`: the whole stack on embedded defaults, data under `.data/` (reused on the next
 * start). Ctrl-C stops every process this started.
 */
import path from 'node:path';
import { REPO_ROOT } from '../platform/paths.js';
import { loadConfig } from '../platform/config.js';
import { assertNode22 } from '../platform/node-version.js';
import { startStack } from './stack.js';

assertNode22();
const config = loadConfig();
const explicitTemporal = process.env.TEMPORAL_ADDRESS;
const stack = await startStack({
  dataDir: config.dataDir,
  databaseUrl: config.databaseUrl,
  pgPort: Number(process.env.EMBEDDED_PG_PORT ?? 54329),
  temporalAddress: explicitTemporal,
  temporalPort: 7233,
  temporalUiPort: 8233,
  temporalDbFile: path.join(config.dataDir, 'temporal.sqlite'),
  apiPort: config.port,
  standinPorts: { google: Number(process.env.GOOGLE_STANDIN_PORT ?? 9411), github: Number(process.env.GITHUB_STANDIN_PORT ?? 9412) },
  log: (m) => console.log(`· ${m}`),
});

const base = config.publicBaseUrl;
console.log(`
Identity Verification Service is running (${config.mode} mode)
  API            ${base}/v1
  API docs       ${base}/v1/docs   (OpenAPI: ${base}/v1/openapi.json)
  Dashboard      ${base}/dashboard
  Temporal UI    ${stack.temporalUiUrl ?? config.temporal.uiUrl}
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
