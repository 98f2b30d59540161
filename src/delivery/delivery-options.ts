// How notifications are sent is set from outside (the CLI's flags, createRuntime): the options, in a
// file of their own so those callers need not import the worker.
import type { SqsOptions } from './queue-transport.ts';

/** How the delivery worker sends (createRuntime's `delivery`, the CLI's flags). */
export interface DeliveryOptions {
  /** Per-attempt timeout of a webhook POST or an SQS call (default 10 s). */
  timeoutMs?: number;
  /** Server-wide Standard Webhooks secret, used when a subscription has none. */
  webhookSecret?: string;
  sqs?: SqsOptions;
  /** Attempts in flight at once (default 16) and per subscription (default 4), so one slow callback cannot hold up the others. */
  concurrency?: number;
  perSubscription?: number;
  /** Longest sleep between looks at the outbox (default 1 s), so a moved wall clock is noticed. */
  maxSleepMs?: number;
  random?: () => number;
}
