// What runs around the scenarios: the preflight before the first, a clean start before each, the
// removal of what each created after it, and the run report and sandbox clean-up at the end.
import { After, AfterAll, Before, BeforeAll, Status, setDefaultTimeout } from '@cucumber/cucumber';
import { resendingOnClose } from './fetch-again.ts';
import { preflightProblems } from './preflight.ts';
import { WebhookReceiver } from './receiver.ts';
import { leaveSandbox, sandboxInUse } from './sandbox.ts';
import type { SimWorld } from './world.ts';

setDefaultTimeout(20_000);

const receiver = new WebhookReceiver();

BeforeAll(async function (this: { parameters?: { target?: string } }) {
  const target = this.parameters?.target ?? 'inprocess';
  if (target !== 'inprocess') globalThis.fetch = resendingOnClose(globalThis.fetch);
  await preflight(target);
  await receiver.start();
});

/**
 * A target without its settings, one that cannot be reached or refuses the client, or (staging)
 * settings the target does not bear out stop the run here: one line per problem, not a stack, and
 * not the same error once per scenario.
 */
async function preflight(target: string): Promise<void> {
  let problems: string[];
  try {
    problems = await preflightProblems(target);
  } catch (err) {
    // A preflight that broke leaves no sandbox behind either.
    await leaveSandbox();
    throw err;
  }
  if (problems.length === 0) {
    // A run stopped by a signal deletes the sandbox it created too (else it lingers until it expires).
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.once(signal, () => {
        void leaveSandbox().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
      });
    return;
  }
  for (const p of problems) process.stderr.write(`conformance preflight: ${p}\n`);
  const left = await leaveSandbox();
  if (left) process.stderr.write(`conformance preflight: ${left}\n`);
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

// The scenarios about sandboxes make sandboxes of the server as its default sandbox's admin: a run
// in a sandbox (CONFORMANCE_SANDBOX) acts as that sandbox's clients, which make none.
Before({ tags: '@sandboxes' }, function (this: SimWorld) {
  const run = sandboxInUse();
  if (!run) return undefined;
  this.log(
    `skipped: the run is in sandbox ${run.sandbox.id} (CONFORMANCE_SANDBOX), whose clients make no sandboxes; the scenarios about sandboxes run in the server's own world`,
  );
  return 'skipped';
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
// The sandbox the run created (CONFORMANCE_SANDBOX=new) is deleted, whatever the scenarios' outcome.
AfterAll(async () => {
  await receiver.stop();
  const left = await leaveSandbox();
  if (left) throw new Error(left);
});
