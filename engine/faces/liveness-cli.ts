import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ZLivenessChallenge } from '../../domain/liveness.js';
import { readFramesDir } from './frames-dir.js';
import { createFaceEngine } from './index.js';

const USAGE = 'usage: npm run engine -- liveness <frames-dir>... --challenge <challenge.json> [--now <iso time>] [--evidence]';

/**
 * `liveness <frames-dir> --challenge <json>`: one JSON line per frames directory (layout in
 * frames-dir.ts). `--now` is the submission time; by default the moment the last frame was
 * taken, so the output depends on the inputs only.
 */
export async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { challenge: { type: 'string' }, now: { type: 'string' }, evidence: { type: 'boolean', default: false } },
  });
  if (!values.challenge || positionals.length === 0) {
    process.stderr.write(`${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  const challenge = ZLivenessChallenge.parse(JSON.parse(await readFile(values.challenge, 'utf8')));
  const engine = await createFaceEngine();
  try {
    for (const dir of positionals) {
      const frames = await readFramesDir(dir);
      const lastMs = Math.max(0, ...frames.map((f) => f.meta.timestamp_ms));
      const now = values.now ? new Date(values.now) : new Date(Date.parse(challenge.issued_at) + lastMs);
      const { outcome } = await engine.evaluateLiveness({ frames, challenge, now });
      const ev = outcome.evidence as { challenge?: { steps?: unknown[] }; scores?: Record<string, number | null> };
      const line = {
        file: dir,
        passed: outcome.status === 'passed',
        status: outcome.status,
        reasons: outcome.reasons,
        score: outcome.score,
        steps: ev.challenge?.steps ?? challenge.steps.map((step) => ({ step, done: false, at_ms: null, magnitude: null })),
        scores: ev.scores ?? {},
        duration_ms: outcome.duration_ms,
        ...(values.evidence ? { evidence: outcome.evidence, models: outcome.models } : {}),
      };
      process.stdout.write(`${JSON.stringify(line)}\n`);
    }
  } finally {
    await engine.close();
  }
}
