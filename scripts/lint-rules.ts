/**
 * The architecture's import rules as an ESLint rule (`arch/import-direction`), so they hold by
 * themselves: `npm run lint` (and CI) fails on an import that ARCHITECTURE.md's folder table does
 * not allow. The table below IS that table; ARCHITECTURE.md describes it in prose.
 *
 * This file is loaded by `eslint.config.js` through Node's own type stripping (Node ≥ 22.18), so it
 * uses erasable TypeScript only and imports nothing from the project.
 */
import { builtinModules } from 'node:module';
import path from 'node:path';

/** What one top-level folder may import. */
export interface LayerRule {
  /** Project paths it may import (folder prefixes like `domain/`, or single files like `platform/paths.ts`). */
  readonly folders: readonly string[];
  /** Project paths it may import with `import type` only (erased at build time: no runtime edge). */
  readonly typeOnly?: readonly string[];
  /** Bare packages it may import: `'*'` for any; `node:` for Node built-ins; `@scope/` for a scope. */
  readonly packages: readonly string[];
}

const ANY = ['*'];

/**
 * The folder table. Runtime folders never import `tools/` (offline tooling) or `test/`, `bench/`,
 * `scripts/`; `workflows/` is loaded into Temporal's deterministic sandbox, so it may import only
 * `domain/`, the workflow SDK and activity *types*; `domain/` is workflow-safe (no Node, no ORM).
 */
export const ARCHITECTURE: Readonly<Record<string, LayerRule>> = {
  domain: { folders: ['domain/'], packages: ['zod', '@temporalio/workflow'] },
  workflows: { folders: ['workflows/', 'domain/'], typeOnly: ['activities/'], packages: ['@temporalio/workflow'] },
  activities: { folders: ['activities/', 'domain/', 'db/', 'platform/', 'engine/', 'sdk/'], packages: ANY },
  worker: { folders: ['worker/', 'activities/', 'db/', 'platform/', 'domain/'], packages: ANY },
  // api/server.ts is the composition root: it opens the ORM (db/orm.ts) and builds the capture
  // advisor (engine/capture-advice.ts, the engine's side of domain's CaptureAdvisor port); routes
  // see entities as types only and reach the advisor through the services' deps.
  api: { folders: ['api/', 'services/', 'domain/', 'platform/', 'hosted/', 'dashboard/', 'db/orm.ts', 'engine/capture-advice.ts'], typeOnly: ['db/'], packages: ANY },
  services: { folders: ['services/', 'domain/', 'db/', 'platform/'], packages: ANY },
  hosted: { folders: ['hosted/', 'domain/'], packages: ['node:'] },
  dashboard: { folders: ['dashboard/', 'hosted/', 'domain/'], packages: ['node:'] },
  // The ORM config lists the committed migrations explicitly (no folder scanning), so db/orm.ts imports migrations/.
  db: { folders: ['db/', 'domain/', 'migrations/'], packages: ['@mikro-orm/'] },
  migrations: { folders: ['migrations/'], packages: ['@mikro-orm/'] },
  platform: { folders: ['platform/', 'domain/'], packages: ANY },
  engine: { folders: ['engine/', 'domain/', 'platform/paths.ts'], packages: ANY },
  tools: { folders: ['tools/', 'engine/', 'domain/', 'platform/'], packages: ANY },
  sdk: { folders: ['sdk/'], packages: ['node:'] },
  bench: { folders: ['*'], packages: ANY },
  test: { folders: ['*'], packages: ANY },
  scripts: { folders: ['*'], packages: ANY },
};

const BUILTINS = new Set(builtinModules);

function packageAllowed(spec: string, allowed: readonly string[]): boolean {
  if (allowed.includes('*')) return true;
  if (spec.startsWith('node:') || BUILTINS.has(spec.split('/')[0]!)) return allowed.includes('node:');
  return allowed.some((a) => (a.endsWith('/') ? spec.startsWith(a) : spec === a || spec.startsWith(`${a}/`)));
}

function pathAllowed(target: string, allowed: readonly string[] | undefined): boolean {
  if (!allowed) return false;
  return allowed.some((a) => a === '*' || (a.endsWith('/') ? target.startsWith(a) : target === a || target.replace(/\.js$/, '.ts') === a));
}

/** Files exempt from the table: tests beside the code are not shipped (they may use vitest, fixtures, tools). */
export function isExempt(rel: string): boolean {
  return /\.test\.ts$/.test(rel);
}

export type Verdict = { ok: true } | { ok: false; message: string };

/**
 * Judges one import. `fromRel` is the importing file relative to the repository root, `spec` the
 * module specifier, `typeOnly` whether the import is erased (`import type`, `import('x').T`).
 */
export function judgeImport(fromRel: string, spec: string, typeOnly: boolean, table: Readonly<Record<string, LayerRule>> = ARCHITECTURE): Verdict {
  const rel = fromRel.split(path.sep).join('/');
  if (rel.startsWith('..') || isExempt(rel)) return { ok: true };
  const layerName = rel.split('/')[0]!;
  const layer = rel.includes('/') ? table[layerName] : undefined;
  if (!layer) return { ok: true };
  if (!spec.startsWith('.')) {
    return packageAllowed(spec, layer.packages)
      ? { ok: true }
      : { ok: false, message: `${layerName}/ may not import the package "${spec}" (allowed: ${layer.packages.join(', ') || 'none'}); see ARCHITECTURE.md` };
  }
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec));
  if (target.startsWith('..')) return { ok: false, message: `${layerName}/ imports "${spec}", outside the repository` };
  const targetFolder = target.split('/')[0]!;
  if (pathAllowed(target, layer.folders)) return { ok: true };
  if (pathAllowed(target, layer.typeOnly)) {
    return typeOnly ? { ok: true } : { ok: false, message: `${layerName}/ may import ${targetFolder}/ for types only (use \`import type\`); see ARCHITECTURE.md` };
  }
  return { ok: false, message: `${layerName}/ may not import ${targetFolder}/ ("${spec}"); allowed: ${[...layer.folders, ...(layer.typeOnly ?? []).map((t) => `${t} (types)`)].join(', ')}; see ARCHITECTURE.md` };
}

// Minimal structural types for the parts of ESLint's rule API used here (no @types import needed).
interface Node {
  type: string;
  source?: { type: string; value?: unknown } | null;
  importKind?: string;
  exportKind?: string;
  specifiers?: { importKind?: string; exportKind?: string }[];
  argument?: { type: string; value?: unknown; literal?: { value?: unknown } } | null;
}
interface Context {
  filename: string;
  cwd: string;
  report(d: { node: unknown; message: string }): void;
}

function allSpecifiersType(node: Node, key: 'importKind' | 'exportKind'): boolean {
  return Boolean(node.specifiers?.length) && node.specifiers!.every((s) => s[key] === 'type');
}

export const importDirection = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports follow the folder table in ARCHITECTURE.md' },
    schema: [],
  },
  create(context: Context) {
    const rel = path.relative(context.cwd, context.filename);
    const check = (node: Node, spec: unknown, typeOnly: boolean) => {
      if (typeof spec !== 'string') return;
      const v = judgeImport(rel, spec, typeOnly);
      if (!v.ok) context.report({ node, message: v.message });
    };
    return {
      ImportDeclaration(node: Node) {
        check(node, node.source?.value, node.importKind === 'type' || allSpecifiersType(node, 'importKind'));
      },
      ExportNamedDeclaration(node: Node) {
        if (node.source) check(node, node.source.value, node.exportKind === 'type' || allSpecifiersType(node, 'exportKind'));
      },
      ExportAllDeclaration(node: Node) {
        check(node, node.source?.value, node.exportKind === 'type');
      },
      ImportExpression(node: Node) {
        if (node.source?.type === 'Literal') check(node, node.source.value, false);
      },
      TSImportType(node: Node) {
        // `import('x').T` in a type position: erased.
        const arg = node.argument;
        const spec = node.source?.value ?? (arg?.type === 'TSLiteralType' ? arg.literal?.value : arg?.value);
        check(node, spec, true);
      },
    };
  },
};

export const archPlugin = { meta: { name: 'arch' }, rules: { 'import-direction': importDirection } };
