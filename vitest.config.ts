import { defineConfig } from 'vitest/config';

// Unit tests (`*.test.ts`) need nothing running. Integration (`*.int.test.ts`) and end-to-end
// (`test/e2e/**`) suites get a real PostgreSQL, a real Temporal dev server and a real worker
// from the global setup. `forks` because Temporal's native bridge does not like worker threads.
export default defineConfig({
  test: {
    pool: 'forks',
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['{api,activities,workflows,worker,domain,db,platform,engine,tools,dashboard,scripts,services,sdk,hosted}/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', 'node_modules/**'],
          testTimeout: 120_000,
          // Both cores of CI's 2-core machine (vitest's default is one fewer than the cores): the unit
          // files share nothing on disk or on ports, and ran in 336 s instead of about 430 s. `npm test`
          // (scripts/test.ts) runs this project in a vitest process of its own, at a lower priority,
          // beside the integration one: within one process vitest would run a project without file
          // parallelism only after every other project.
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['**/*.int.test.ts', 'test/e2e/**/*.test.ts', 'test/integration/**/*.test.ts'],
          exclude: ['node_modules/**'],
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        // A Temporal server on PostgreSQL, two workers, two api processes: needs the server built
        // (11 minutes the first time), so `npm test` leaves it out; `npm run test:temporal-postgres`.
        extends: true,
        test: {
          name: 'temporal-postgres',
          include: ['test/temporal-postgres/**/*.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
