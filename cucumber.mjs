// Profiles: default = in process (the app's fetch), sim = a running simulator at SIM_BASE_URL,
// staging = a real environment at CONFORMANCE_BASE_URL.
// Tags: @simulator needs the scheme clock or injection (not on staging); @inprocess reaches into
// the simulator itself (wall clock, start-up options), so only the default profile runs it;
// @two-organisations needs a second client, which staging has only when CONFORMANCE_OTHER_* is set;
// @journey spans harness runs (features/support/journeys.ts); @smoke marks a few scenarios per flow that
// test/packaging/installed-package.test.ts runs from a project with the packed package installed.
// A simulator the features start writes its CLI profile here, never to the user's ~/.scheme-sim.
process.env.SCHEME_SIM_PROFILE ??= `${process.env.TMPDIR ?? '/tmp'}/scheme-sim-features-profile-${process.pid}.json`;

// Where the reports go: reports/ in the working directory, or CONFORMANCE_REPORTS_DIR (environment
// only). .ci/run points the suite's own run at a folder of its own, so that its tally never counts
// a report that a test's cucumber run wrote into reports/ (docs/conformance.md).
const reports = process.env.CONFORMANCE_REPORTS_DIR || 'reports';

// Support code from this file's folder, so the harness runs from any working directory (another
// project with scheme-sim installed: `npx scheme-sim conformance` passes the features' own path);
// reports go to the working directory.
const here = new URL('.', import.meta.url).pathname;

const common = {
  // The TypeScript support code is loaded through tsx's ESM hooks, registered by cucumber's
  // `loader` option as its docs say (docs/transpiling.md): plain `npx cucumber-js` works. A file
  // URL, so the harness run from another project finds scheme-sim's own tsx.
  loader: [new URL('features/support/tsx-loader.mjs', import.meta.url).href],
  // Unit tests of the support code sit beside it (vitest runs them); cucumber must not load them.
  import: [`${here}features/support/**/!(*.test).ts`, `${here}features/steps/**/!(*.test).ts`],
  format: [
    // Progress, each skipped scenario with its reason, each failure with its exchange once.
    `${here}features/support/console-formatter.ts`,
    `html:${reports}/cucumber.html`,
    `junit:${reports}/cucumber.junit.xml`,
    `message:${reports}/cucumber.ndjson`,
  ],
  formatOptions: { junit: { suiteName: 'scheme-sim conformance' } },
};

const stagingTags = [
  'not @simulator',
  'not @inprocess',
  ...(process.env.CONFORMANCE_OTHER_CLIENT_ID ? [] : ['not @two-organisations']),
];

// Journeys span harness runs against a clock nobody moves (staging): the other profiles leave them
// to test/conformance-journey.test.ts, which runs them against a simulator treated as staging.
/**
 * A profile's target: its world parameter, and its run report (features/support/run-report.ts), the
 * table by flow on the console and the same as JSON in reports/conformance-<target>.json.
 */
const against = (target) => ({
  ...common,
  format: [
    ...common.format,
    `"${here}features/support/run-report-formatter.ts":"${reports}/conformance-${target}.json"`,
  ],
  formatOptions: { ...common.formatOptions, conformance: { target } },
  worldParameters: { target },
});

export default { ...against('inprocess'), tags: 'not @journey' };
export const sim = { ...against('sim'), tags: 'not @inprocess and not @journey' };
export const staging = { ...against('staging'), tags: stagingTags.join(' and ') };
