import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestReceiver } from '../../test/support/webhook-receiver.ts';
import { systemClock } from '../clock/clock.ts';
import { NORTHWIND, type TestRuntime, testRuntime } from '../harness/test-runtime.ts';
import { FAST_RETRY_SCHEDULE } from '../sim/notifications/retry-schedule.ts';
import { QueueTransport, sqsOptionsFromEnv } from './queue-transport.ts';

// A local HTTP server plays SQS: it receives the SDK's real SendMessage requests (AWS JSON 1.0
// protocol: POST /, X-Amz-Target AmazonSQS.SendMessage, a JSON body) and answers like SQS does.

interface SqsCall {
  target: string | undefined;
  headers: IncomingHttpHeaders;
  body: {
    QueueUrl: string;
    MessageBody: string;
    MessageAttributes: Record<string, { DataType: string; StringValue: string }>;
    MessageGroupId?: string;
    MessageDeduplicationId?: string;
  };
}

let server: Server;
let endpoint: string;
const calls: SqsCall[] = [];
const failures: number[] = [];

beforeEach(async () => {
  calls.length = 0;
  failures.length = 0;
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      calls.push({ target: req.headers['x-amz-target'] as string | undefined, headers: req.headers, body });
      const failure = failures.shift();
      if (failure) {
        res.writeHead(failure, { 'content-type': 'application/x-amz-json-1.0' });
        return res.end(
          JSON.stringify({
            __type: 'com.amazonaws.sqs#QueueDoesNotExist',
            message: 'The specified queue does not exist.',
          }),
        );
      }
      const md5 = createHash('md5').update(body.MessageBody).digest('hex');
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify({ MessageId: crypto.randomUUID(), MD5OfMessageBody: md5 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('queue transport', () => {
  it('sends SendMessage with the body and the event and record types as attributes', async () => {
    const transport = new QueueTransport({ region: 'eu-west-2' });
    const queueUrl = `${endpoint}/000000000000/scheme-events`;
    const outcome = await transport.send({
      queueUrl,
      body: '{"id":"n1"}',
      eventType: 'created',
      recordType: 'report_admissions',
      notificationId: 'n1',
      deduplicationId: 'n1',
      subscriptionId: 's1',
      timeoutMs: 2000,
      signal: new AbortController().signal,
    });
    transport.close();
    expect(outcome).toEqual({ ok: true, response_code: 200 });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.target).toBe('AmazonSQS.SendMessage');
    expect(calls[0]!.headers.authorization).toContain('/eu-west-2/sqs/aws4_request');
    expect(calls[0]!.body).toMatchObject({
      QueueUrl: queueUrl,
      MessageBody: '{"id":"n1"}',
      MessageAttributes: {
        event_type: { DataType: 'String', StringValue: 'created' },
        record_type: { DataType: 'String', StringValue: 'report_admissions' },
      },
    });
    expect(calls[0]!.body.MessageGroupId).toBeUndefined();
  });

  it('sets a group and deduplication id for a FIFO queue, and reports an SQS error reply', async () => {
    const transport = new QueueTransport({ endpoint });
    failures.push(400);
    const queueUrl = 'https://sqs.eu-west-2.amazonaws.com/123456789012/events.fifo';
    const outcome = await transport.send({
      queueUrl,
      body: '{}',
      eventType: 'created',
      recordType: 'accounts',
      notificationId: 'n2',
      deduplicationId: 'n2',
      subscriptionId: 's2',
      timeoutMs: 2000,
      signal: new AbortController().signal,
    });
    transport.close();
    expect(calls[0]!.body).toMatchObject({ QueueUrl: queueUrl, MessageGroupId: 's2', MessageDeduplicationId: 'n2' });
    expect(outcome).toMatchObject({ ok: false, response_code: 400, error_category: 'queue_error' });
    expect(outcome.error_message).toContain('QueueDoesNotExist');
  });

  it('reads endpoint, region and credentials from the environment', () => {
    expect(
      sqsOptionsFromEnv({
        SCHEME_SIM_SQS_ENDPOINT: 'http://localhost:9324',
        AWS_DEFAULT_REGION: 'elasticmq',
        AWS_ACCESS_KEY_ID: 'x',
        AWS_SECRET_ACCESS_KEY: 'y',
      }),
    ).toEqual({
      endpoint: 'http://localhost:9324',
      region: 'elasticmq',
      accessKeyId: 'x',
      secretAccessKey: 'y',
    });
  });
});

describe('queue subscriptions end to end', () => {
  let rt: TestRuntime;
  afterEach(() => rt.close());

  it('delivers the notification of an account to the queue, retrying an SQS failure', async () => {
    rt = await testRuntime({
      wall: systemClock,
      retrySchedule: FAST_RETRY_SCHEDULE,
      delivery: { timeoutMs: 2000, sqs: { region: 'us-east-1' } },
    });
    rt.start();
    const queueUrl = `${endpoint}/000000000000/scheme-events`;
    const sub = await rt.call('POST', '/v1/notification/subscriptions', {
      data: {
        id: crypto.randomUUID(),
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
    expect(sub.status).toBe(201);
    failures.push(500);
    const accountId = crypto.randomUUID();
    await rt.call('POST', '/v1/organisation/accounts', {
      data: {
        id: accountId,
        organisation_id: NORTHWIND.organisation_id,
        type: 'accounts',
        attributes: {
          country: 'GB',
          bank_id: '400300',
          bank_id_code: 'GBDSC',
          bic: 'NWBKGB22',
          account_number: '41426819',
          name: ['Sam Holder'],
        },
      },
    });
    await TestReceiver.until(() => rt.sim.outbox.entries.values()[0]?.status === 'delivered', 'queue delivery');
    expect(calls).toHaveLength(2);
    const message = JSON.parse(calls[1]!.body.MessageBody);
    expect(message).toMatchObject({
      event_type: 'created',
      record_type: 'accounts',
      data: { data: { id: accountId } },
    });
    expect(calls[1]!.body.MessageAttributes.record_type!.StringValue).toBe('accounts');
    const attempts = rt.sim.outbox.attempts.values();
    expect(attempts.map((a) => [a.transport, a.status, a.response_code])).toEqual([
      ['queue', 'failed', 500],
      ['queue', 'succeeded', 200],
    ]);
  });

  it('sends a FIFO queue its notifications one at a time, oldest first, holding them behind a failed one', async () => {
    rt = await testRuntime({
      wall: systemClock,
      retrySchedule: FAST_RETRY_SCHEDULE,
      delivery: { timeoutMs: 2000, sqs: { region: 'us-east-1' } },
    });
    rt.start();
    const queueUrl = `${endpoint}/000000000000/scheme-events.fifo`;
    const subscriptionId = crypto.randomUUID();
    const sub = await rt.call('POST', '/v1/notification/subscriptions', {
      data: {
        id: subscriptionId,
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
    expect(sub.status).toBe(201);
    failures.push(500, 500);
    const ids: string[] = [];
    for (const number of ['41426830', '41426831', '41426832']) {
      const id = crypto.randomUUID();
      ids.push(id);
      await rt.call('POST', '/v1/organisation/accounts', {
        data: {
          id,
          organisation_id: NORTHWIND.organisation_id,
          type: 'accounts',
          attributes: {
            country: 'GB',
            bank_id: '400300',
            bank_id_code: 'GBDSC',
            bic: 'NWBKGB22',
            account_number: number,
            name: ['Sam Holder'],
          },
        },
      });
    }
    await TestReceiver.until(
      () => rt.sim.outbox.entries.values().filter((e) => e.status === 'delivered').length === 3,
      'three FIFO deliveries',
    );
    const sent = calls.map((c) => (JSON.parse(c.body.MessageBody) as { data: { data: { id: string } } }).data.data.id);
    // The first fails twice; nothing later is sent until its third try has succeeded.
    expect(sent).toEqual([ids[0], ids[0], ids[0], ids[1], ids[2]]);
    expect(new Set(calls.map((c) => c.body.MessageGroupId))).toEqual(new Set([subscriptionId]));
  });
});
