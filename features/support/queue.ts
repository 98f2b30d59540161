// Scenarios about queue delivery need an SQS to subscribe with and read from, as a subscriber's
// consumer would, without AWS: the harness's queues on a local emulator.
import type { Message, SQSClient } from '@aws-sdk/client-sqs';
import { AfterAll } from '@cucumber/cucumber';
import type { FauxqsServer } from 'fauxqs';

/** One message read off a queue, as a consumer sees it. */
export interface QueueMessage {
  queueUrl: string;
  body: string;
  json: unknown;
  /** Message attributes (name → string value), e.g. event_type and record_type. */
  attributes: Record<string, string>;
  /** System attributes asked for: MessageGroupId and MessageDeduplicationId on a FIFO queue. */
  system: Record<string, string>;
}

/**
 * The harness's SQS: an emulator (fauxqs, a real server on a real socket) that the scenarios make
 * queues on and read them with the AWS SDK, as a subscriber's consumer would. Started on first use,
 * so scenarios without queues do not pay for it. Its queue URLs are
 * http://sqs.eu-west-2.localhost:<port>/000000000000/<name>: the simulator sends `.localhost` hosts
 * to 127.0.0.1, so a simulator running elsewhere on this machine reaches it too.
 */
class SqsQueues {
  #started: Promise<{ server: FauxqsServer; client: SQSClient; sdk: typeof import('@aws-sdk/client-sqs') }> | undefined;
  /** Messages read while waiting for another, by queue URL, oldest first. */
  readonly #unread = new Map<string, QueueMessage[]>();

  #start() {
    return (this.#started ??= (async () => {
      const [{ startFauxqs }, sdk] = await Promise.all([import('fauxqs'), import('@aws-sdk/client-sqs')]);
      const server = await startFauxqs({ port: 0, logger: false, defaultRegion: 'eu-west-2' });
      const client = new sdk.SQSClient({
        endpoint: `http://127.0.0.1:${server.port}`,
        region: 'eu-west-2',
        credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      });
      return { server, client, sdk };
    })());
  }

  /** A new queue (FIFO when asked), named uniquely; returns its URL. */
  async create(fifo: boolean): Promise<string> {
    const { client, sdk } = await this.#start();
    const name = `scheme-sim-${crypto.randomUUID().slice(0, 8)}${fifo ? '.fifo' : ''}`;
    const out = await client.send(
      new sdk.CreateQueueCommand({ QueueName: name, ...(fifo ? { Attributes: { FifoQueue: 'true' } } : {}) }),
    );
    return out.QueueUrl!;
  }

  /** The URL a queue would have on the emulator, without making it (a subscriber's misconfiguration). */
  async missing(): Promise<string> {
    const { server } = await this.#start();
    return `http://sqs.eu-west-2.localhost:${server.port}/000000000000/scheme-sim-missing-${crypto.randomUUID().slice(0, 8)}`;
  }

  /**
   * The oldest message of the queue that `match` accepts, waiting up to `timeoutMs`. Every message
   * read is deleted from the queue (as a consumer does); those not matched wait here for a later call.
   */
  async take(queueUrl: string, match: (m: QueueMessage) => boolean, timeoutMs = 10_000): Promise<QueueMessage> {
    const { client, sdk } = await this.#start();
    const unread = this.#unread.get(queueUrl) ?? [];
    this.#unread.set(queueUrl, unread);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = unread.findIndex(match);
      if (i >= 0) return unread.splice(i, 1)[0]!;
      if (Date.now() > deadline)
        throw new Error(`no matching message on ${queueUrl} within ${timeoutMs} ms; ${unread.length} others read`);
      const out = await client.send(
        new sdk.ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 1,
          MessageAttributeNames: ['All'],
          MessageSystemAttributeNames: ['MessageGroupId', 'MessageDeduplicationId'],
        }),
      );
      for (const m of out.Messages ?? []) {
        unread.push(read(queueUrl, m));
        await client.send(new sdk.DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle! }));
      }
    }
  }

  async stop(): Promise<void> {
    const started = this.#started;
    this.#started = undefined;
    this.#unread.clear();
    if (!started) return;
    const { server, client } = await started;
    client.destroy();
    await server.stop();
  }
}

function read(queueUrl: string, m: Message): QueueMessage {
  let json: unknown;
  try {
    json = JSON.parse(m.Body ?? '');
  } catch {
    json = undefined;
  }
  const attributes: Record<string, string> = {};
  for (const [name, value] of Object.entries(m.MessageAttributes ?? {}))
    if (value.StringValue !== undefined) attributes[name] = value.StringValue;
  const system: Record<string, string> = {};
  for (const [name, value] of Object.entries(m.Attributes ?? {})) if (value !== undefined) system[name] = value;
  return { queueUrl, body: m.Body ?? '', json, attributes, system };
}

export const queues = new SqsQueues();

AfterAll(async () => {
  await queues.stop();
});
