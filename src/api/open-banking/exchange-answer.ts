// The exchange's one entry for a caller that awaits its answer: the Hono route, and the lookup side
// of Confirmation of Payee asking a participant's endpoint in process (ask-participant.ts).
import type { AppDeps } from '../context.ts';
import { type BodySink, type ParticipantRequest, runParticipantRequest } from './name-verification-exchange.ts';
import type { ObAnswer } from './ob-answer.ts';
import type { ObRequestInfo } from './ob-errors.ts';

/** The answer, and the client the request was authenticated as ('' for none). */
export interface ExchangeOutcome {
  answer: ObAnswer;
  clientId: string;
}

/**
 * Runs a request under /v1/participants through `runParticipantRequest`; `body` is called only
 * when the answer needs the body, and what it throws or rejects with (a 413, a cut-off body) is
 * answered in Open Banking terms as any failure to read it.
 */
export function exchangeAnswer(
  deps: AppDeps,
  request: ObRequestInfo,
  body: () => Uint8Array | Promise<Uint8Array>,
): Promise<ExchangeOutcome> {
  return new Promise((resolve) => runParticipantRequest(deps, new AwaitedRequest(request, body, resolve)));
}

class AwaitedRequest implements ParticipantRequest {
  readonly #request: ObRequestInfo;
  readonly #body: () => Uint8Array | Promise<Uint8Array>;
  readonly #resolve: (outcome: ExchangeOutcome) => void;

  constructor(
    request: ObRequestInfo,
    body: () => Uint8Array | Promise<Uint8Array>,
    resolve: (outcome: ExchangeOutcome) => void,
  ) {
    this.#request = request;
    this.#body = body;
    this.#resolve = resolve;
  }

  get method(): string {
    return this.#request.method;
  }

  get path(): string {
    return this.#request.path;
  }

  get target(): string | undefined {
    return this.#request.target;
  }

  header(name: string): string | undefined {
    return this.#request.header(name);
  }

  readBody(sink: BodySink): void {
    let body: Uint8Array | Promise<Uint8Array>;
    try {
      body = this.#body();
    } catch (err) {
      sink.bodyFailed(err);
      return;
    }
    if (body instanceof Promise)
      body.then(
        (bytes) => sink.bodyRead(bytes),
        (err: unknown) => sink.bodyFailed(err),
      );
    else sink.bodyRead(body);
  }

  reply(answer: ObAnswer, clientId: string): void {
    this.#resolve({ answer, clientId });
  }
}
