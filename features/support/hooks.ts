import { After, AfterAll, Before, BeforeAll, setDefaultTimeout, Status } from '@cucumber/cucumber';
import { WebhookReceiver } from './receiver.ts';
import type { SimWorld } from './world.ts';

setDefaultTimeout(20_000);

const receiver = new WebhookReceiver();
const counts = { passed: 0, failed: 0, skipped: 0 };

BeforeAll(async () => {
  await receiver.start();
});

Before(async function (this: SimWorld) {
  receiver.reset();
  await this.open(receiver);
});

After(async function (this: SimWorld, { result }) {
  await this.target?.close();
  if (result?.status === Status.PASSED) counts.passed++;
  else if (result?.status === Status.SKIPPED) counts.skipped++;
  else counts.failed++;
});

AfterAll(async () => {
  await receiver.stop();
  // Read by .ci/run; the same counts as the progress formatter's scenario line.
  console.log(`\nconformance: ${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`);
});
