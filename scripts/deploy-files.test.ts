import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../platform/paths.js';
import { SEARCH_ATTRIBUTES } from '../platform/temporal-server.js';
import { SA } from '../services/search-attributes.js';
import { DEPLOY_DIR, TEMPORAL_SERVER_VERSION } from './temporal-postgres.js';

/**
 * docker-compose.yml describes what test/temporal-postgres runs: validated by docker-compose itself
 * (the Debian package pinned in .ci/apt-packages.txt; no Docker engine needed for `config`), and held
 * to the same server version, files and process counts as scripts/temporal-postgres.ts.
 */
const compose = spawnSync('docker-compose', ['version', '--short'], { encoding: 'utf8' });
const hasCompose = compose.status === 0;
if (!hasCompose) {
  console.log('docker-compose: unavailable (apt-get install docker-compose; .ci/apt-packages.txt pins it)');
  if (process.env.CI) throw new Error('CI installs docker-compose from .ci/apt-packages.txt, yet it is missing');
}

// What production refuses to start without; docker-compose requires them (`:?`) before it renders.
const env = {
  PATH: process.env.PATH,
  POSTGRES_PASSWORD: 'pw',
  PUBLIC_BASE_URL: 'https://kyc.example.com',
  BLOB_ENCRYPTION_KEY: 'a'.repeat(64),
  SECRETS_ENCRYPTION_KEY: 'b'.repeat(64),
  GOOGLE_CLIENT_ID: 'g', GOOGLE_CLIENT_SECRET: 'g', GITHUB_CLIENT_ID: 'h', GITHUB_CLIENT_SECRET: 'h',
};
const dc = (args: string[], e: NodeJS.ProcessEnv = env) => spawnSync('docker-compose', ['-f', path.join(REPO_ROOT, 'docker-compose.yml'), ...args], { env: e, encoding: 'utf8', cwd: REPO_ROOT });

describe('search attributes', () => {
  it('registered by both Temporal runners are exactly those the Case workflow is started with', () => {
    const kinds: Record<string, string> = { KEYWORD: 'Keyword', INT: 'Int' };
    const used = Object.fromEntries(Object.values(SA).map((k) => [k.name, kinds[k.type] ?? k.type]));
    expect(used).toEqual(SEARCH_ATTRIBUTES);
  });
});

describe.skipIf(!hasCompose)('docker-compose.yml', () => {
  it('validates, and refuses to render without its secrets', () => {
    const ok = dc(['config', '--quiet']);
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    const missing = dc(['config', '--quiet'], { PATH: process.env.PATH });
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toMatch(/POSTGRES_PASSWORD|PUBLIC_BASE_URL/);
  });

  it('runs what the PostgreSQL-backed test runs: server version, config, schema script, registration, two workers and two api processes', () => {
    const services = dc(['config', '--services']).stdout.trim().split('\n').sort();
    expect(services).toEqual(['api-1', 'api-2', 'migrate', 'postgres', 'temporal', 'temporal-register', 'temporal-schema', 'temporal-ui', 'worker-1', 'worker-2']);
    const rendered = dc(['config']).stdout;
    expect(rendered).toContain(`image: ivs-temporal:${TEMPORAL_SERVER_VERSION}`);
    expect(rendered).toContain(`TEMPORAL_VERSION: ${TEMPORAL_SERVER_VERSION}`);
    expect(rendered).toMatch(/command:\n\s+- sh\n\s+- \/etc\/temporal\/setup-schema\.sh/);
    expect(rendered).toMatch(/- scripts\/temporal-postgres\.ts\n\s+- register/);
    expect(rendered.match(/- worker\/main\.ts/g)).toHaveLength(2);

    const dockerfile = readFileSync(path.join(DEPLOY_DIR, 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain(`ARG TEMPORAL_VERSION=${TEMPORAL_SERVER_VERSION}`);
    expect(dockerfile).toContain('go install go.temporal.io/server/cmd/server@v${TEMPORAL_VERSION} go.temporal.io/server/cmd/tools/sql@v${TEMPORAL_VERSION}');
    expect(dockerfile).toContain('COPY config.yaml dynamicconfig.yaml setup-schema.sh /etc/temporal/');
    // The image's toolchain pin is the script's.
    const script = readFileSync(path.join(REPO_ROOT, 'scripts', 'temporal-postgres.ts'), 'utf8');
    const toolchain = /const GO_TOOLCHAIN = '([^']+)'/.exec(script)![1];
    expect(dockerfile).toContain(`GOTOOLCHAIN=${toolchain}`);

    // The registration comment lists the attributes the workflow sets.
    const source = readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8');
    for (const name of Object.keys(SEARCH_ATTRIBUTES)) expect(source).toContain(name);
  });
});
