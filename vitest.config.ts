// The suite `npm run test:unit` runs: every *.test.ts beside the code and under test/, but the load
// tests, which vitest.load.config.ts runs alone afterwards.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'test/**/*.test.ts',
      'features/**/*.test.ts',
      'scripts/**/*.test.ts',
      'bench/**/*.test.ts',
    ],
    // The load tests run on their own after everything else: vitest.load.config.ts.
    exclude: ['test/load/**', '**/node_modules/**'],
    environment: 'node',
    // A simulator the tests start writes its CLI profile here, never to the user's ~/.scheme-sim.
    // The cucumber runs of tests write their reports to reports/ of their working directory, never
    // to the folder .ci/run gives the suite's own features run (CONFORMANCE_REPORTS_DIR, cucumber.mjs).
    env: {
      SCHEME_SIM_PROFILE: join(tmpdir(), `scheme-sim-test-profile-${process.pid}.json`),
      CONFORMANCE_REPORTS_DIR: '',
    },
    // Vitest's default is one worker per core but one: a single worker on the 2-core CI machines.
    // Much of the suite waits on child processes, sockets and browsers rather than computing, so
    // three workers keep both cores busy.
    maxWorkers: 3,
    testTimeout: 20000,
    hookTimeout: 20000,
    // The json report is what .ci/run counts.
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
  },
});
