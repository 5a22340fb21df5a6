import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { AUTHENTICITY_SETTINGS_V1, AUTHENTICITY_SETTINGS_V2, AUTHENTICITY_SETTINGS_V3, AUTHENTICITY_SETTINGS_V4, AUTHENTICITY_SETTINGS_V5, AUTHENTICITY_SETTINGS_V6, AUTHENTICITY_SETTINGS_V7, AUTHENTICITY_SETTINGS_V8, AUTHENTICITY_SETTINGS_V9, AuthenticityError, createAuthenticityEngine, DEFAULT_AUTHENTICITY_SETTINGS } from './index.js';

/** `--settings N`: run a released settings version (the one an older engine profile pins). */
const SETTINGS = { '1': AUTHENTICITY_SETTINGS_V1, '2': AUTHENTICITY_SETTINGS_V2, '3': AUTHENTICITY_SETTINGS_V3, '4': AUTHENTICITY_SETTINGS_V4, '5': AUTHENTICITY_SETTINGS_V5, '6': AUTHENTICITY_SETTINGS_V6, '7': AUTHENTICITY_SETTINGS_V7, '8': AUTHENTICITY_SETTINGS_V8, '9': AUTHENTICITY_SETTINGS_V9 } as const;
import type { Zone } from './zones.js';

/**
 * `npm run engine -- authenticity [--kind document_back] [--session-start ISO] [--submitted ISO]
 *  [--zones zones.json] [--files-from list.txt|-] [--settings 1..9] <image>...` → one JSON line per file:
 * `{ file, score, status, reasons, signals, models, duration_ms }`, or `{ file, error }` with a
 * PII-free error code. `zones.json` is an array of `{ name, x, y, width, height }` applied to
 * every file (or an object keyed by file path). `--files-from` reads more paths, one per line
 * (`-` = stdin): a long batch must not travel on argv, where it would crash ONNX Runtime
 * (engine/onnx-guard.ts). A file that fails gets its error line and the batch goes on.
 */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      kind: { type: 'string', default: 'document_front' },
      'session-start': { type: 'string' },
      submitted: { type: 'string' },
      zones: { type: 'string' },
      'files-from': { type: 'string' },
      settings: { type: 'string' },
    },
  });
  const files = [...positionals];
  if (values['files-from']) {
    const list = values['files-from'] === '-' ? await readStdin() : await readFile(values['files-from'], 'utf8');
    files.push(...list.split(/\r?\n/).filter((line) => line.trim() !== ''));
  }
  if (files.length === 0) {
    process.stderr.write('usage: npm run engine -- authenticity [--kind document_front|document_back] [--session-start ISO] [--submitted ISO] [--zones zones.json] [--files-from list.txt|-] [--settings 1..9] <image>...\n');
    process.exitCode = 2;
    return;
  }
  const kind = values.kind === 'document_back' ? 'document_back' : 'document_front';
  const zonesArg = values.zones ? (JSON.parse(await readFile(values.zones, 'utf8')) as Zone[] | Record<string, Zone[]>) : undefined;
  const settings = values.settings ? SETTINGS[values.settings as keyof typeof SETTINGS] : DEFAULT_AUTHENTICITY_SETTINGS;
  if (!settings) {
    process.stderr.write(`unknown --settings ${values.settings} (1..9)\n`);
    process.exitCode = 2;
    return;
  }
  const engine = await createAuthenticityEngine(settings);
  try {
    for (const file of files) {
      try {
        const bytes = await readFile(file);
        const zones = Array.isArray(zonesArg) ? zonesArg : zonesArg?.[file];
        const outcome = await engine.analyze({
          bytes,
          kind,
          zones,
          sessionStartedAt: values['session-start'] ? new Date(values['session-start']) : undefined,
          submittedAt: values.submitted ? new Date(values.submitted) : undefined,
        });
        process.stdout.write(
          JSON.stringify({
            file,
            score: outcome.score,
            status: outcome.status,
            reasons: outcome.reasons,
            signals: outcome.evidence.signals,
            models: outcome.models,
            duration_ms: outcome.duration_ms,
          }) + '\n',
        );
      } catch (err) {
        const code = err instanceof AuthenticityError ? err.code : err && (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'file_not_found' : 'internal_error';
        process.stdout.write(JSON.stringify({ file, error: code }) + '\n');
        process.exitCode = 1;
      }
    }
  } finally {
    await engine.close();
  }
}
