// Profiles: default = in process (the app's fetch), sim = a running simulator at SIM_BASE_URL,
// staging = a real environment at CONFORMANCE_BASE_URL (scenarios tagged @simulator are skipped).
const common = {
  import: ['features/support/**/*.ts', 'features/steps/**/*.ts'],
  format: [
    'progress',
    'html:reports/cucumber.html',
    'junit:reports/cucumber.junit.xml',
    'message:reports/cucumber.ndjson',
  ],
  formatOptions: { junit: { suiteName: 'scheme-sim conformance' } },
};

export default { ...common, worldParameters: { target: 'inprocess' } };
export const sim = { ...common, worldParameters: { target: 'sim' } };
export const staging = { ...common, tags: 'not @simulator', worldParameters: { target: 'staging' } };
