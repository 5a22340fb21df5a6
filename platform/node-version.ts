/** Node ≥ 22.17 is required (MikroORM 7, vitest 5). npm scripts use the `node` dev dependency's binary. */
export function assertNode22(): void {
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  if (major < 22 || (major === 22 && minor < 17)) {
    process.stderr.write(`Node ${process.versions.node} is too old: Node ≥ 22.17 is required. Run through npm (npm start / npm test), which uses the node@22 dev dependency, or install Node 22.\n`);
    process.exit(1);
  }
}
