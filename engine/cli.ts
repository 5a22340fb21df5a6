import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { onnxCommandLineProblem } from './onnx-guard.js';

/**
 * `npm run engine -- <command> [options] <files...>`: one JSON object per input on stdout (JSON Lines).
 * Each engine owns its sub-command in `engine/<name>/cli.ts`; this file only dispatches.
 */
const commands: Record<string, () => Promise<{ main(argv: string[]): Promise<void> }>> = {
  document: () => import('./document/cli.js'),
  authenticity: () => import('./authenticity/cli.js'),
  'face-match': () => import('./faces/face-match-cli.js'),
  liveness: () => import('./faces/liveness-cli.js'),
};

/** Internal: the arguments arrive as one JSON array on stdin (see below). */
const ARGV_FROM_STDIN = '--argv-from-stdin';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

let args = process.argv.slice(2);
if (args[0] === ARGV_FROM_STDIN) {
  args = JSON.parse(await readStdin()) as string[];
} else if (onnxCommandLineProblem()) {
  // A long file list on argv would crash onnxruntime-node (engine/onnx-guard.ts). Hand the same
  // arguments to a child over stdin: its own command line stays short, its output is ours.
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ARGV_FROM_STDIN], { stdio: ['pipe', 'inherit', 'inherit'] });
  child.stdin.end(JSON.stringify(args));
  const code = await new Promise<number>((resolve) => child.on('close', (c, signal) => resolve(c ?? (signal ? 128 + 9 : 1))));
  process.exit(code);
}
const [command, ...rest] = args;
if (!command || !(command in commands)) {
  process.stderr.write(`usage: npm run engine -- <${Object.keys(commands).join('|')}> [options] <files...>\n`);
  process.exit(2);
}
const mod = await commands[command]!();
await mod.main(rest);
