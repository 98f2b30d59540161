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
    environment: 'node',
    testTimeout: 20000,
    hookTimeout: 20000,
    // The json report is what .ci/run counts.
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
  },
});
