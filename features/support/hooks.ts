import { After, AfterAll, Before, BeforeAll, Status, setDefaultTimeout } from '@cucumber/cucumber';
import { WebhookReceiver } from './receiver.ts';
import type { SimWorld } from './world.ts';

setDefaultTimeout(20_000);

const receiver = new WebhookReceiver();
const counts = { passed: 0, failed: 0, skipped: 0 };

BeforeAll(async function (this: { parameters?: { target?: string } }) {
  // A target without its settings fails once, here, rather than in every scenario.
  const target = this.parameters?.target;
  const needed =
    target === 'staging'
      ? ['CONFORMANCE_BASE_URL', 'CONFORMANCE_CLIENT_ID', 'CONFORMANCE_CLIENT_SECRET']
      : target === 'sim'
        ? ['SIM_BASE_URL']
        : [];
  const missing = needed.filter((name) => !process.env[name]);
  if (missing.length > 0)
    throw new Error(`the ${target} conformance target needs ${missing.join(', ')} (see README, Conformance harness)`);
  await receiver.start();
});

Before(async function (this: SimWorld) {
  receiver.reset();
  await this.open(receiver);
  // Against a running simulator every scenario starts from the fixtures and the clock's start, as
  // in process (each scenario gets a fresh runtime there). SIM_RESET=0 keeps the simulator's state.
  if (this.target.name === 'sim' && process.env.SIM_RESET !== '0') {
    const res = await this.send('POST', '/v1/simulator/reset');
    if (res.status !== 200) throw new Error(`resetting the simulator failed: ${res.status} ${res.text}`);
    this.last = undefined;
  }
});

After(async function (this: SimWorld, { result }) {
  if (result?.status === Status.FAILED && this.filled.size > 0) {
    // What each {{placeholder}} of the scenario stood for, so a failure can be read without rerunning it.
    const lines = [...this.filled].map(([name, value]) => `${name} = ${value}`);
    await this.attach(`placeholders:\n${lines.join('\n')}`, { mediaType: 'text/plain', fileName: 'placeholders' });
  }
  await this.target?.close();
  if (result?.status === Status.PASSED) counts.passed++;
  else if (result?.status === Status.SKIPPED) counts.skipped++;
  else counts.failed++;
});

AfterAll(async () => {
  await receiver.stop();
  // Read by .ci/run; the same counts as the progress formatter's scenario line.
  console.log(
    `\nconformance: ${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`,
  );
});
