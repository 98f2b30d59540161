// The load tests (test/load/): many conformance runs at once against one simulator. They run after
// the rest of the suite (`npm run test:load`, the last step of `npm test`), alone on the machine:
// twenty processes on two cores beside the other test files would slow both into time-outs.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/load/**/*.test.ts'],
    environment: 'node',
    // As in vitest.config.ts: the tests' cucumber runs never write to .ci/run's reports folder.
    env: {
      SCHEME_SIM_PROFILE: join(tmpdir(), `scheme-sim-test-profile-${process.pid}.json`),
      CONFORMANCE_REPORTS_DIR: '',
    },
    maxWorkers: 1,
    testTimeout: 20000,
    hookTimeout: 20000,
    // Counted by .ci/run beside reports/vitest.json.
    reporters: ['default', ['json', { outputFile: 'reports/vitest-load.json' }]],
  },
});
