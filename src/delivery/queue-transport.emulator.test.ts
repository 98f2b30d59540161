import { createHash, createPublicKey, verify } from 'node:crypto';
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  type Message,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { type FauxqsServer, startFauxqs } from 'fauxqs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { subscribeToAccounts } from '../../test/support/testing.ts';
import { TestReceiver } from '../../test/support/webhook-receiver.ts';
import { systemClock } from '../clock/clock.ts';
import { NORTHWIND, type TestRuntime, testRuntime } from '../harness/test-runtime.ts';
import { FAST_RETRY_SCHEDULE } from '../sim/notifications/retry-schedule.ts';
import { queueEndpoint } from './queue-transport.ts';

// The queue transport against a running SQS emulator (fauxqs, a real server on a real socket):
// queues are created and read with the same SDK a subscriber's consumer would use, so these tests
// see what a consumer sees, not only what was sent. The emulator names its queues
// http://sqs.<region>.localhost:<port>/000000000000/<name>, which the transport sends to 127.0.0.1.

let sqs: FauxqsServer;
let consumer: SQSClient;

beforeAll(async () => {
  sqs = await startFauxqs({ port: 0, logger: false, defaultRegion: 'eu-west-2' });
  consumer = new SQSClient({
    endpoint: `http://127.0.0.1:${sqs.port}`,
    region: 'eu-west-2',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
});
afterAll(async () => {
  consumer.destroy();
  await sqs.stop();
});

async function newQueue(name: string, fifo = false): Promise<string> {
  const out = await consumer.send(
    new CreateQueueCommand({
      QueueName: fifo ? `${name}.fifo` : name,
      ...(fifo ? { Attributes: { FifoQueue: 'true' } } : {}),
    }),
  );
  return out.QueueUrl!;
}

/** Long-polls until `count` messages have arrived, deleting each (as a consumer does). */
async function receive(queueUrl: string, count: number): Promise<Message[]> {
  const got: Message[] = [];
  const deadline = Date.now() + 10_000;
  while (got.length < count && Date.now() < deadline) {
    const out = await consumer.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
        MessageAttributeNames: ['All'],
        MessageSystemAttributeNames: ['MessageGroupId', 'MessageDeduplicationId'],
      }),
    );
    for (const m of out.Messages ?? []) {
      got.push(m);
      await consumer.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle! }));
    }
  }
  return got;
}

async function subscribe(rt: TestRuntime, queueUrl: string): Promise<string> {
  const id = crypto.randomUUID();
  const res = await rt.call('POST', '/v1/notification/subscriptions', {
    data: {
      id,
      organisation_id: NORTHWIND.organisation_id,
      type: 'subscriptions',
      attributes: {
        event_type: 'created',
        record_type: 'accounts',
        callback_transport: 'queue',
        callback_uri: queueUrl,
      },
    },
  });
  expect(res.status).toBe(201);
  return id;
}

async function createAccount(rt: TestRuntime, accountNumber: string): Promise<string> {
  const id = crypto.randomUUID();
  const res = await rt.call('POST', '/v1/organisation/accounts', {
    data: {
      id,
      organisation_id: NORTHWIND.organisation_id,
      type: 'accounts',
      attributes: {
        country: 'GB',
        bank_id: '400300',
        bank_id_code: 'GBDSC',
        bic: 'NWBKGB22',
        account_number: accountNumber,
        name: ['Sam Holder'],
      },
    },
  });
  expect(res.status).toBe(201);
  return id;
}

describe('queueEndpoint', () => {
  it('sends to the queue URL origin, a .localhost host to 127.0.0.1, and a configured endpoint before either', () => {
    expect(queueEndpoint('https://sqs.eu-west-2.amazonaws.com/123456789012/events')).toBe(
      'https://sqs.eu-west-2.amazonaws.com',
    );
    expect(queueEndpoint('http://localhost:9324/000000000000/events')).toBe('http://localhost:9324');
    expect(queueEndpoint('http://sqs.eu-west-2.localhost:4566/000000000000/events')).toBe('http://127.0.0.1:4566');
    expect(queueEndpoint('http://SQS.Localhost:4566/000000000000/events')).toBe('http://127.0.0.1:4566');
    expect(queueEndpoint('http://localhost.example.com/000000000000/events')).toBe('http://localhost.example.com');
    expect(queueEndpoint('http://sqs.eu-west-2.localhost:4566/000000000000/events', 'http://10.0.0.5:9324')).toBe(
      'http://10.0.0.5:9324',
    );
  });
});

describe('queue subscriptions against an SQS emulator', () => {
  let rt: TestRuntime;
  afterEach(() => rt.close());

  it('puts the notification on the queue, where a consumer reads its body and attributes', async () => {
    rt = await testRuntime({ wall: systemClock, retrySchedule: FAST_RETRY_SCHEDULE, delivery: { timeoutMs: 2000 } });
    rt.start();
    const queueUrl = await newQueue('scheme-events');
    expect(new URL(queueUrl).hostname).toBe('sqs.eu-west-2.localhost');
    await subscribe(rt, queueUrl);
    const accountId = await createAccount(rt, '41426819');

    const [message, ...more] = await receive(queueUrl, 1);
    expect(more).toEqual([]);
    const notification = JSON.parse(message!.Body!);
    expect(notification).toMatchObject({
      event_type: 'created',
      record_type: 'accounts',
      organisation_id: NORTHWIND.organisation_id,
      data: { data: { id: accountId } },
    });
    const attributes = message!.MessageAttributes!;
    expect(attributes).toMatchObject({
      event_type: { DataType: 'String', StringValue: 'created' },
      record_type: { DataType: 'String', StringValue: 'accounts' },
    });
    // Signed as webhooks are, over `date digest` of the body (there is no request to sign): the
    // consumer checks the digest and the signature with the key of GET /v1/platform/security/signing_keys/{id}.
    const signature = attributes.Signature!.StringValue!;
    const keyId = /keyId="([^"]+)"/.exec(signature)![1]!;
    const publicKey = createPublicKey(rt.sim.notificationKeys.find(keyId)!.public_key);
    const digest = `SHA-256=${createHash('sha256').update(message!.Body!).digest('base64')}`;
    expect(attributes.Digest!.StringValue).toBe(digest);
    const signed = Buffer.from(`date: ${attributes.Date!.StringValue}\ndigest: ${digest}`);
    expect(verify('sha256', signed, publicKey, Buffer.from(/signature="([^"]+)"/.exec(signature)![1]!, 'base64'))).toBe(
      true,
    );
    await TestReceiver.until(() => rt.sim.outbox.entries.values()[0]?.status === 'delivered', 'queue delivery');
    expect(rt.sim.outbox.attempts.values().map((a) => [a.transport, a.status, a.response_code])).toEqual([
      ['queue', 'succeeded', 200],
    ]);
  });

  it('groups a FIFO queue by subscription and deduplicates by notification id', async () => {
    rt = await testRuntime({ wall: systemClock, retrySchedule: FAST_RETRY_SCHEDULE, delivery: { timeoutMs: 2000 } });
    rt.start();
    const queueUrl = await newQueue('scheme-events-ordered', true);
    const subscriptionId = await subscribe(rt, queueUrl);
    const first = await createAccount(rt, '41426820');
    const second = await createAccount(rt, '41426821');

    const messages = await receive(queueUrl, 2);
    const notifications = messages.map((m) => JSON.parse(m.Body!) as { id: string; data: { data: { id: string } } });
    expect(notifications.map((n) => n.data.data.id)).toEqual([first, second]); // in order, as a FIFO queue promises
    for (const [i, m] of messages.entries()) {
      expect(m.Attributes).toMatchObject({
        MessageGroupId: subscriptionId,
        MessageDeduplicationId: notifications[i]!.id,
      });
    }
  });

  it('puts a redelivery on a FIFO queue again rather than letting SQS drop it as a duplicate', async () => {
    rt = await testRuntime({ wall: systemClock, retrySchedule: FAST_RETRY_SCHEDULE, delivery: { timeoutMs: 2000 } });
    rt.start();
    const queueUrl = await newQueue('scheme-events-redelivered', true);
    await subscribe(rt, queueUrl);
    await createAccount(rt, '41426823');
    const [first] = await receive(queueUrl, 1);
    const notificationId = (JSON.parse(first!.Body!) as { id: string }).id;
    await TestReceiver.until(
      () => rt.sim.outbox.entries.get(notificationId)?.status === 'delivered',
      'the first delivery',
    );

    expect((await rt.call('POST', `/v1/simulator/deliveries/${notificationId}/redeliver`)).status).toBe(202);
    const [again] = await receive(queueUrl, 1);
    expect((JSON.parse(again!.Body!) as { id: string }).id).toBe(notificationId); // the same notification
    expect(first!.Attributes!.MessageDeduplicationId).toBe(notificationId);
    expect(again!.Attributes!.MessageDeduplicationId).not.toBe(notificationId);
  });

  it('logs a missing queue as an SQS error and retries it, without losing the notification', async () => {
    rt = await testRuntime({ wall: systemClock, retrySchedule: FAST_RETRY_SCHEDULE, delivery: { timeoutMs: 2000 } });
    rt.start();
    const queueUrl = `http://sqs.eu-west-2.localhost:${sqs.port}/000000000000/not-created-yet-${crypto.randomUUID().slice(0, 8)}`;
    await subscribe(rt, queueUrl);
    const accountId = await createAccount(rt, '41426822');

    await TestReceiver.until(() => rt.sim.outbox.attempts.values().length >= 1, 'a first attempt');
    const [failed] = rt.sim.outbox.attempts.values();
    expect(failed).toMatchObject({
      transport: 'queue',
      status: 'failed',
      response_code: 400,
      error_category: 'queue_error',
    });
    expect(failed!.error_message).toContain('QueueDoesNotExist');

    // The subscriber creates the queue late: a retry delivers what the first attempt could not.
    await newQueue(new URL(queueUrl).pathname.split('/')[2]!);
    const [message] = await receive(queueUrl, 1);
    expect(JSON.parse(message!.Body!)).toMatchObject({ data: { data: { id: accountId } } });
    await TestReceiver.until(
      () => rt.sim.outbox.entries.values()[0]?.status === 'delivered',
      'queue delivery after a retry',
    );
  });

  it('delivers to each of callback_uris: a webhook and a queue get the same notification', async () => {
    rt = await testRuntime({ wall: systemClock, retrySchedule: FAST_RETRY_SCHEDULE, delivery: { timeoutMs: 2000 } });
    rt.start();
    const queueUrl = await newQueue('mixed-callbacks');
    const receiver = new TestReceiver();
    await receiver.up();
    try {
      await subscribeToAccounts(rt, [
        ['http', receiver.url],
        ['queue', queueUrl],
      ]);
      const accountId = await createAccount(rt, '41426899');
      const [message] = await receive(queueUrl, 1);
      await TestReceiver.until(() => receiver.delivered.length === 1, 'the webhook');
      const fromQueue = JSON.parse(message!.Body!) as { id: string; data: { data: { id: string } } };
      const fromWebhook = JSON.parse(receiver.delivered[0]!.body) as { id: string };
      expect(fromQueue.data.data.id).toBe(accountId);
      expect(fromQueue.id).toBe(fromWebhook.id);
    } finally {
      await receiver.down();
    }
  });
});
