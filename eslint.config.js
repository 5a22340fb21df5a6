// ESLint flat config. The one project rule, `arch/import-direction`, enforces ARCHITECTURE.md's
// folder table (scripts/lint-rules.ts, loaded through Node's type stripping). Type errors are
// `npm run typecheck`'s job; this config adds only what tsc cannot see. `return-await` (typed, so
// the project service) because a promise returned un-awaited from a `try` escapes its `catch` and
// lets its `finally` run first: a test helper removed its frames while still reading them.
import tseslint from 'typescript-eslint';
import { archPlugin } from './scripts/lint-rules.ts';

export default [
  { ignores: ['node_modules/**', '.data/**', 'dist/**', 'coverage/**', 'workflows/histories/**', 'hosted/capture.js'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 2023, sourceType: 'module', parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { arch: archPlugin, '@typescript-eslint': tseslint.plugin },
    rules: { 'arch/import-direction': 'error', '@typescript-eslint/return-await': ['error', 'in-try-catch'] },
  },
];
