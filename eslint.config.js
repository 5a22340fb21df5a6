// ESLint flat config. The one project rule, `arch/import-direction`, enforces ARCHITECTURE.md's
// folder table (scripts/lint-rules.ts, loaded through Node's type stripping). Type errors are
// `npm run typecheck`'s job; this config adds only what tsc cannot see.
import tseslint from 'typescript-eslint';
import { archPlugin } from './scripts/lint-rules.ts';

export default [
  { ignores: ['node_modules/**', '.data/**', 'dist/**', 'coverage/**', 'workflows/histories/**', 'hosted/capture.js'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 2023, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { arch: archPlugin },
    rules: { 'arch/import-direction': 'error' },
  },
];
