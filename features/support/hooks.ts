import { After, AfterAll, Before, BeforeAll, Status, setDefaultTimeout } from '@cucumber/cucumber';
import { preflightProblems } from './preflight.ts';
import { WebhookReceiver } from './receiver.ts';
import type { SimWorld } from './world.ts';

setDefaultTimeout(20_000);

const receiver = new WebhookReceiver();

BeforeAll(async function (this: { parameters?: { target?: string } }) {
  await preflight(this.parameters?.target ?? 'inprocess');
  await receiver.start();
});

/**
 * A target without its settings, one that cannot be reached or refuses the client, or (staging)
 * settings the target does not bear out stop the run here: one line per problem, not a stack, and
 * not the same error once per scenario.
 */
async function preflight(target: string): Promise<void> {
  const problems = await preflightProblems(target);
  if (problems.length === 0) return;
  for (const p of problems) process.stderr.write(`conformance preflight: ${p}\n`);
  process.exit(2);
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

After(async function (this: SimWorld, { result }) {
  if (result?.status === Status.FAILED && this.filled.size > 0) {
    // What each {{placeholder}} of the scenario stood for, so a failure can be read without rerunning it.
    const lines = [...this.filled].map(([name, value]) => `${name} = ${value}`);
    await this.attach(`placeholders:\n${lines.join('\n')}`, { mediaType: 'text/plain', fileName: 'placeholders' });
  }
  // What the scenario created is removed before the target closes, newest first; one that cannot
  // be removed fails the scenario (after every other removal was tried), naming it.
  const left: string[] = [];
  for (const { what, run } of this.undo.splice(0).reverse()) {
    try {
      await run();
    } catch (err) {
      left.push(`${what}: ${(err as Error).message}`);
    }
  }
  await this.target?.close();
  if (left.length > 0) throw new Error(`left on the target, could not be removed:\n${left.join('\n')}`);
});

// The counts and the table by flow are the console formatter's (run-report.ts), from every worker's scenarios.
AfterAll(async () => {
  await receiver.stop();
});
