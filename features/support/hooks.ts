import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { After, AfterAll, Before, BeforeAll, Status, setDefaultTimeout } from '@cucumber/cucumber';
import { form3SignedHeaders } from '../../src/index.ts';
import { copPreflight } from './cop-preflight.ts';
import { WebhookReceiver } from './receiver.ts';
import { missingSettings, reachTarget, reachTargetSigned, readSettings, settingsOf } from './settings.ts';
import { simTargetProblem } from './sim-target.ts';
import { FlowTally } from './tally.ts';
import { FIXTURE_CLIENTS } from './targets.ts';
import type { SimWorld } from './world.ts';

setDefaultTimeout(20_000);

const receiver = new WebhookReceiver();
const counts = { passed: 0, failed: 0, skipped: 0 };
const tally = new FlowTally();

BeforeAll(async function (this: { parameters?: { target?: string } }) {
  await preflight(this.parameters?.target ?? 'inprocess');
  await receiver.start();
});

/**
 * A target without its settings, or one that cannot be reached or refuses the client, stops the run
 * here with one line naming every problem: not a stack, and not the same error once per scenario.
 */
async function preflight(target: string): Promise<void> {
  const settings = readSettings();
  let problem = missingSettings(target, settingsOf(target), settings);
  if (!problem && target === 'staging') {
    const keyId = settings.CONFORMANCE_SIGNING_KEY_ID;
    const keyFile = settings.CONFORMANCE_SIGNING_KEY;
    problem =
      keyId && keyFile
        ? await reachTargetSigned(settings.CONFORMANCE_BASE_URL!, (url) =>
            form3SignedHeaders(url, 'GET', undefined, keyId, createPrivateKey(readFileSync(keyFile))),
          ).catch((err: Error) => `the signing key ${keyFile} cannot be used: ${err.message}`)
        : await reachTarget(
            settings.CONFORMANCE_BASE_URL!,
            settings.CONFORMANCE_CLIENT_ID!,
            settings.CONFORMANCE_CLIENT_SECRET!,
          );
  }
  if (!problem && target === 'sim') {
    const client = FIXTURE_CLIENTS.default!;
    problem = await reachTarget(
      settings.SIM_BASE_URL!,
      settings.SIM_CLIENT_ID ?? client.client_id,
      settings.SIM_CLIENT_SECRET ?? client.client_secret,
    );
    if (!problem)
      problem = await simTargetProblem(settings.SIM_BASE_URL!, {
        client_id: settings.SIM_CLIENT_ID ?? client.client_id,
        client_secret: settings.SIM_CLIENT_SECRET ?? client.client_secret,
        resets: settings.SIM_RESET !== '0',
        resetOk: settings.SIM_RESET_OK === '1',
      });
  }
  // Name verification as the target answers it: signed requests where it demands them, answers that verify.
  if (!problem && (target === 'staging' || target === 'sim')) problem = await copPreflight(target, settings);
  if (problem) {
    process.stderr.write(`conformance preflight: ${problem}\n`);
    process.exit(2);
  }
}

Before(async function (this: SimWorld) {
  receiver.reset();
  await this.open(receiver);
  // Against a running simulator every scenario starts from the fixtures and the clock's start, as
  // in process (each scenario gets a fresh runtime there). SIM_RESET=0 keeps the simulator's state.
  if (this.target.name === 'sim' && process.env.SIM_RESET !== '0') {
    const res = await this.send('POST', '/v1/simulator/reset', { body: '{"scope":"all"}' });
    if (res.status !== 200) throw new Error(`resetting the simulator failed: ${res.status} ${res.text}`);
    this.last = undefined;
  }
});

After(async function (this: SimWorld, { result, pickle }) {
  if (result?.status === Status.FAILED && this.filled.size > 0) {
    // What each {{placeholder}} of the scenario stood for, so a failure can be read without rerunning it.
    const lines = [...this.filled].map(([name, value]) => `${name} = ${value}`);
    await this.attach(`placeholders:\n${lines.join('\n')}`, { mediaType: 'text/plain', fileName: 'placeholders' });
  }
  await this.target?.close();
  const outcome =
    result?.status === Status.PASSED ? 'passed' : result?.status === Status.SKIPPED ? 'skipped' : 'failed';
  counts[outcome]++;
  tally.add(pickle.uri, outcome);
});

AfterAll(async () => {
  await receiver.stop();
  // Read by .ci/run; the same counts as the progress formatter's scenario line.
  console.log(
    `\nconformance: ${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`,
  );
  console.log(`conformance ${tally.line()}`);
});
