/**
 * `npm test`: the unit and integration vitest projects, side by side.
 *
 *   npm test                         both projects, in two vitest processes at once
 *   npm test -- <vitest arguments>   one vitest process over both projects, as `vitest run` takes them
 *                                    (a file, `-t name`, `--project unit`): for running a part
 *
 * Why two processes: vitest runs a project without file parallelism (integration: one stack, one file at
 * a time) in a group of its own after every other project, so on CI's two cores the integration files
 * waited for the unit files and then spent most of their time waiting on Cases, grace periods and
 * restarted processes while a core idled. Side by side the suites took 813 s instead of 1 151 s
 * (docs/decisions.md "CI: the unit and integration suites side by side"). Both at the same priority:
 * with the unit process niced, a tesseract read in a unit test, starved behind the browser and the
 * worker, overran the engine's own 8 s guard.
 *
 * Output: each process's lines are passed through as they come, a chunk at a time (vitest writes a
 * file's results in one chunk, so blocks stay whole); each process's closing `tests:` line is printed as
 * `tests (unit): …`, and one `tests: N passed, N failed, N skipped` line for both closes the run, the
 * line CI log readers judge by (.ci/run adds the PostgreSQL-backed suite's to it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../platform/paths.js';

const VITEST = path.join(REPO_ROOT, 'node_modules', '.bin', 'vitest');
const SUMMARY = /^tests: (\d+) passed, (\d+) failed, (\d+) skipped\s*$/;

interface Totals { passed: number; failed: number; skipped: number }

const args = process.argv.slice(2);
if (args.length > 0) {
  const child = spawn(VITEST, ['run', '--project', 'unit', '--project', 'integration', ...args], { cwd: REPO_ROOT, stdio: 'inherit' });
  forwardSignals([child]);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  const runs = [
    run('integration', [VITEST, 'run', '--project', 'integration']),
    run('unit', [VITEST, 'run', '--project', 'unit']),
  ];
  forwardSignals(runs.map((r) => r.child));
  const results = await Promise.all(runs.map((r) => r.done));
  const total: Totals = { passed: 0, failed: 0, skipped: 0 };
  let code = 0;
  for (const r of results) {
    // A process that ended without its summary (killed, or a crash before the reporter ran) counts
    // as one failure, so the closing line never reads clean when a suite did not finish.
    const t = r.totals ?? { passed: 0, failed: 1, skipped: 0 };
    total.passed += t.passed;
    total.failed += t.failed;
    total.skipped += t.skipped;
    if (r.code !== 0 || !r.totals) code = 1;
  }
  process.stdout.write(`\ntests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped\n`);
  process.exit(code);
}

function run(name: string, command: string[]): { child: ChildProcess; done: Promise<{ code: number; totals: Totals | null }> } {
  const child = spawn(command[0]!, command.slice(1), { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let totals: Totals | null = null;
  const pipe = (stream: NodeJS.ReadableStream, out: NodeJS.WritableStream): void => {
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop()!;
      out.write(lines.map((line) => rename(line)).join('\n') + (lines.length ? '\n' : ''));
    });
    stream.on('end', () => { if (partial) out.write(rename(partial) + '\n'); });
  };
  const rename = (line: string): string => {
    const m = SUMMARY.exec(line);
    if (!m) return line;
    totals = { passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3]) };
    return `tests (${name}): ${m[1]} passed, ${m[2]} failed, ${m[3]} skipped`;
  };
  pipe(child.stdout!, process.stdout);
  pipe(child.stderr!, process.stderr);
  const done = new Promise<{ code: number; totals: Totals | null }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), totals }));
  });
  return { child, done };
}

function forwardSignals(children: ChildProcess[]): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => { for (const c of children) c.kill(signal); });
  }
}
