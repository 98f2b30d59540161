// Subscriptions may deliver to an SQS queue as Form3's do: the transport that sends to SQS or a local
// emulator (ElasticMQ, LocalStack) without an AWS SDK.
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { SignedHeaders } from '../signatures/notifications/form3-notification-signature.ts';
import type { AttemptOutcome } from '../sim/notifications/outbox.ts';
import { DeliveryInterrupted } from './http-transport.ts';

/** Where SQS calls go and how they are signed; defaults suit ElasticMQ and LocalStack. */
export interface SqsOptions {
  /** Endpoint for every queue; default: the origin of each queue URL. */
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
}

/** SCHEME_SIM_SQS_ENDPOINT, AWS_REGION (or AWS_DEFAULT_REGION), AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN. */
export function sqsOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): SqsOptions {
  const o: SqsOptions = {};
  if (env.SCHEME_SIM_SQS_ENDPOINT) o.endpoint = env.SCHEME_SIM_SQS_ENDPOINT;
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  if (region) o.region = region;
  if (env.AWS_ACCESS_KEY_ID) o.accessKeyId = env.AWS_ACCESS_KEY_ID;
  if (env.AWS_SECRET_ACCESS_KEY) o.secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (env.AWS_SESSION_TOKEN) o.sessionToken = env.AWS_SESSION_TOKEN;
  return o;
}

export interface QueueMessage {
  queueUrl: string;
  body: string;
  eventType: string;
  recordType: string;
  notificationId: string;
  /**
   * MessageDeduplicationId on a FIFO queue: the notification id, so retries of one delivery are
   * kept once; a redelivery asked for by hand gets its own (SQS drops a repeat within 5 minutes).
   */
  deduplicationId: string;
  subscriptionId: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Form3's signature of the body, carried in message attributes Date, Digest and Signature. */
  signature?: SignedHeaders;
}

/**
 * Where SendMessage for `queueUrl` goes: the configured endpoint, else the queue URL's origin. A
 * host under `.localhost` (RFC 6761: always the loopback) is sent to 127.0.0.1 on the same port,
 * because the system resolver here may not know such names: local SQS emulators name their queues
 * that way (fauxqs `http://sqs.eu-west-2.localhost:4566/000000000000/events`). The QueueUrl in the
 * request is left as it is, since emulators look queues up by their exact URL.
 */
export function queueEndpoint(queueUrl: string, configured?: string): string {
  if (configured) return configured;
  const url = new URL(queueUrl);
  const host = url.hostname.toLowerCase();
  if (host.endsWith('.localhost')) url.hostname = '127.0.0.1';
  return url.origin;
}

/** An SQS FIFO queue's name ends in `.fifo`: messages of one group are kept in the order sent. */
export function isFifoQueue(queueUrl: string): boolean {
  return queueUrl.endsWith('.fifo');
}

type Sdk = typeof import('@aws-sdk/client-sqs');
let sdk: Promise<Sdk> | undefined;
/** The SDK is loaded on first use: it costs ~100 ms, which a simulator without queues should not pay at start-up. */
const loadSdk = (): Promise<Sdk> => (sdk ??= import('@aws-sdk/client-sqs'));

/** Sends notifications with SendMessage; one SQS client per endpoint. The outbox does the retries. */
export class QueueTransport {
  readonly #options: SqsOptions;
  readonly #clients = new Map<string, SQSClient>();

  constructor(options: SqsOptions = {}) {
    this.#options = options;
  }

  #client(SQS: Sdk['SQSClient'], queueUrl: string, timeoutMs: number): SQSClient {
    const endpoint = queueEndpoint(queueUrl, this.#options.endpoint);
    let client = this.#clients.get(endpoint);
    if (!client) {
      client = new SQS({
        endpoint,
        region: this.#options.region ?? 'us-east-1',
        credentials: {
          accessKeyId: this.#options.accessKeyId ?? 'test',
          secretAccessKey: this.#options.secretAccessKey ?? 'test',
          ...(this.#options.sessionToken ? { sessionToken: this.#options.sessionToken } : {}),
        },
        maxAttempts: 1,
        requestHandler: { connectionTimeout: timeoutMs, requestTimeout: timeoutMs },
      });
      this.#clients.set(endpoint, client);
    }
    return client;
  }

  async send(m: QueueMessage): Promise<AttemptOutcome> {
    const { SQSClient, SendMessageCommand } = await loadSdk();
    const timeout = AbortSignal.timeout(m.timeoutMs);
    const fifo = isFifoQueue(m.queueUrl);
    const command = new SendMessageCommand({
      QueueUrl: m.queueUrl,
      MessageBody: m.body,
      MessageAttributes: {
        event_type: { DataType: 'String', StringValue: m.eventType },
        record_type: { DataType: 'String', StringValue: m.recordType },
        ...(m.signature
          ? {
              Date: { DataType: 'String', StringValue: m.signature.date },
              Digest: { DataType: 'String', StringValue: m.signature.digest },
              Signature: { DataType: 'String', StringValue: m.signature.signature },
            }
          : {}),
      },
      ...(fifo ? { MessageGroupId: m.subscriptionId, MessageDeduplicationId: m.deduplicationId } : {}),
    });
    try {
      const out = await this.#client(SQSClient, m.queueUrl, m.timeoutMs).send(command, {
        abortSignal: AbortSignal.any([m.signal, timeout]),
      });
      return { ok: true, response_code: out.$metadata.httpStatusCode ?? 200 };
    } catch (err) {
      if (m.signal.aborted) throw new DeliveryInterrupted('delivery interrupted: the worker stopped');
      const e = err as Error & { code?: string; $metadata?: { httpStatusCode?: number } };
      if (timeout.aborted || e.name === 'TimeoutError')
        return {
          ok: false,
          response_code: null,
          error_category: 'timeout',
          error_message: `no response from SQS within ${m.timeoutMs} ms`,
        };
      const status = e.$metadata?.httpStatusCode;
      if (status === undefined)
        return {
          ok: false,
          response_code: null,
          error_category: 'connection_error',
          error_message: `SQS connection failed: ${e.code ?? e.name}: ${e.message}`,
        };
      return {
        ok: false,
        response_code: status,
        error_category: 'queue_error',
        error_message: `SendMessage failed (${status}): ${e.name}: ${e.message}`.slice(0, 300),
      };
    }
  }

  close(): void {
    for (const c of this.#clients.values()) c.destroy();
    this.#clients.clear();
  }
}
