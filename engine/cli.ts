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

const [command, ...rest] = process.argv.slice(2);
if (!command || !(command in commands)) {
  process.stderr.write(`usage: npm run engine -- <${Object.keys(commands).join('|')}> [options] <files...>\n`);
  process.exit(2);
}
const mod = await commands[command]!();
await mod.main(rest);
