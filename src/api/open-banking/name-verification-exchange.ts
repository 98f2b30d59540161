// Name verification as one framework-free exchange: request line, headers and a way to read the
// body in; status, headers and body out. Both adapters call its one entry, `runParticipantRequest`,
// so the rules and their order live here once: the Hono route (app.request(), msw, any non-plain
// URL) and the Node listener of the real server (which answers the hot path without building web
// Request/Response objects).

import { randomUUID } from 'node:crypto';
import type { JwsProblem } from '../../signatures/jws-profile.ts';
import type { VerificationReport, VerificationRequest } from '../../sim/cop/decide.ts';
import { rememberLast } from '../../sim/remember-last.ts';
import { verifyBearer } from '../auth/middleware.ts';
import { isSignatureAuthorization, requestSignatures } from '../auth/request-signatures.ts';
import { parseJsonBody } from '../body/body.ts';
import type { AppDeps } from '../context.ts';
import { checkDeclaredLength } from '../layers/body-limit.ts';
import type { ObAnswer } from './ob-answer.ts';
import { ObError, type ObRequestInfo, obErrorBody, toObError } from './ob-errors.ts';
import { headerChecks, routeOf } from './ob-request-checks.ts';
import { validateOb } from './ob-validate.ts';
import { jwksAnswer } from './participant-jwks.ts';
import { PARTICIPANTS_PREFIX } from './participant-paths.ts';
import { checkRequestSignature, type RequestJwsCheck } from './request-signature.ts';

export const INTERACTION = 'x-fapi-interaction-id';
/** The simulator's verdict on the request's x-jws-signature, and why when invalid. */
const JWS_STATUS = 'x-scheme-sim-jws';
const JWS_PROBLEM = 'x-scheme-sim-jws-problem';

/**
 * A request under /v1/participants as an adapter hands it over: the request line and headers, a
 * way to read the body, and where the answer goes.
 */
export interface ParticipantRequest extends ObRequestInfo {
  /**
   * Reads the body, held to the shared limit, and hands its bytes to `sink.bodyRead`, or what
   * stopped it (413 too large, 400 cut off) to `sink.bodyFailed`; neither when the client has
   * gone. Asked only when the answer needs the body.
   */
  readBody(sink: BodySink): void;
  /** Takes the answer, and the client the request was authenticated as ('' for none). Once. */
  reply(answer: ObAnswer, clientId: string): void;
}

/** Where an adapter hands the body it read (the exchange, so no closure is made per request). */
export interface BodySink {
  bodyRead(body: Uint8Array): void;
  bodyFailed(err: unknown): void;
}

/**
 * The one entry of both adapters: answers a request under /v1/participants (a participant's JWKS,
 * name verification, or the Open Banking 404/405 of anything else) into `request.reply`, at once
 * when nothing waits (no promise on the hot path), else once the body is read or the answer signed.
 */
export function runParticipantRequest(deps: AppDeps, request: ParticipantRequest): void {
  const jwks = jwksAnswer(deps, request.method, request.path);
  if (!jwks) new NameVerificationExchange(deps, request).start();
  else if (!(jwks instanceof Promise)) request.reply(jwks, '');
  else
    jwks.then(
      (answer) => request.reply(answer, ''),
      (err: unknown) => request.reply(errorAnswer(err, request), ''),
    );
}

interface RequestBody {
  Data: {
    SchemeName: string;
    AccountType: 'Personal' | 'Business';
    Identification: string;
    Name: string;
    SecondaryIdentification?: string;
  };
}

/**
 * One name-verification request, in two steps around reading the body (no promise of its own on
 * the hot path: the Node adapter reads the body from its socket callbacks). The constructor runs
 * the checks that need no body, in the order of the shared layers: the declared body size (413),
 * the bearer token (401), the route (404, 405), the participant (404), the headers (406, 415,
 * strict 400); when one fails, `start` answers at once and the body is not read. `bodyRead` then
 * checks the request's x-jws-signature (refusing a bad one in strict mode), parses and validates
 * the body (400) and verifies. Every answer carries x-fapi-interaction-id, echoed or generated, and
 * every answer under a known participant's path its x-jws-signature. A signature of a body
 * answered before is cached, so the answer stays synchronous; a fresh one is a promise.
 * A class, not closures: tsx names every per-request closure at run time.
 */
class NameVerificationExchange implements BodySink {
  readonly interactionId: string;
  /** The answer decided before the body, when a check failed (not yet signed). */
  readonly #early: ObAnswer | undefined;
  readonly #deps: AppDeps;
  readonly #req: ParticipantRequest;
  readonly #openBankingId: string = '';
  #clientId = '';
  /** A Signature Authorization header, verified once the body (its Digest) is read. */
  readonly #signature: string | undefined;
  /** The participant the path names, if it is one: its key signs every answer, errors included. */
  readonly #signer: string | undefined;

  constructor(deps: AppDeps, req: ParticipantRequest) {
    this.#deps = deps;
    this.#req = req;
    this.interactionId = req.header(INTERACTION)?.trim() || randomUUID();
    this.#signer = participantOfPath(deps, req.path);
    try {
      checkDeclaredLength(req.header('content-length'));
      const authorization = req.header('authorization');
      if (deps.mode.credentials && isSignatureAuthorization(authorization)) this.#signature = authorization;
      else this.#clientId = verifyBearer(authorization, deps).clientId;
      const openBankingId = routeOf(req);
      if (!deps.sim.participants.find(openBankingId)) {
        throw new ObError(404, `participant ${openBankingId} does not exist`, [
          {
            ErrorCode: 'UK.OBIE.Resource.NotFound',
            Message: `no participant with open_banking_id ${openBankingId}`,
            Path: 'open_banking_id',
          },
        ]);
      }
      headerChecks(req, deps.mode.copStrict, openBankingId);
      this.#openBankingId = openBankingId;
    } catch (err) {
      this.#early = this.#fail(err);
    }
  }

  /** Answers a failed check at once, or reads the body. */
  start(): void {
    if (this.#early) this.#reply(this.#signed(this.#early));
    else this.#req.readBody(this);
  }

  bodyRead(body: Uint8Array): void {
    this.#reply(this.#answer(body));
  }

  bodyFailed(err: unknown): void {
    this.#reply(this.#signed(this.#fail(err)));
  }

  /** Hands the answer to the adapter, once it is signed; an answer that could not be made is a 500. */
  #reply(answer: ObAnswer | Promise<ObAnswer>): void {
    if (!(answer instanceof Promise)) this.#req.reply(answer, this.#clientId);
    else
      answer.then(
        (signed) => this.#req.reply(signed, this.#clientId),
        (err: unknown) => this.#req.reply(this.#fail(err), this.#clientId),
      );
  }

  /**
   * The signed answer to the body's exact bytes (only when no early check failed). A request
   * signature, when present (always in strict mode), is verified first: strict mode refuses a bad
   * one, otherwise the verdict goes in x-scheme-sim-jws.
   */
  #answer(body: Uint8Array): ObAnswer | Promise<ObAnswer> {
    if (this.#signature !== undefined) {
      // Signed as Form3's SDK signs requests: verified here, where the body its Digest covers is read.
      try {
        this.#clientId = requestSignatures(this.#deps).callerOf(this.#signature, {
          method: this.#req.method,
          target: this.#req.target ?? this.#req.path,
          header: (name) => this.#req.header(name),
          body,
        }).clientId;
      } catch (err) {
        return this.#signed(this.#fail(err));
      }
    }
    const signature = this.#req.header('x-jws-signature');
    if (signature === undefined && !this.#deps.mode.copStrict) return this.#signed(this.#respond(body, ABSENT));
    return this.#checkedAnswer(body, signature);
  }

  /** The answer with the participant's x-jws-signature: at once when cached, else a promise. */
  #signed(answer: ObAnswer): ObAnswer | Promise<ObAnswer> {
    return this.#deps.signer.sign(answer, this.#signer);
  }

  /** The Open Banking error answer for anything thrown (reading the body included), not yet signed. */
  #fail(err: unknown): ObAnswer {
    const answer = errorAnswer(err, this.#req);
    answer.headers[INTERACTION] = this.interactionId;
    return answer;
  }

  async #checkedAnswer(body: Uint8Array, signature: string | undefined): Promise<ObAnswer> {
    const check = await checkRequestSignature(this.#deps, this.#clientId, signature, body);
    const answer =
      check.problem && this.#deps.mode.copStrict
        ? withVerdict(this.#fail(signatureError(check.problem)), check)
        : this.#respond(body, check);
    return this.#signed(answer);
  }

  #respond(bytes: Uint8Array, check: RequestJwsCheck): ObAnswer {
    try {
      // The Node adapter's body is a Buffer already: no view made of it to decode.
      const text = (
        bytes instanceof Buffer ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      ).toString();
      const { Data } = validateOb<RequestBody>('name-verification-request', parseJsonBody(text));
      const request: VerificationRequest = {
        accountType: Data.AccountType,
        identification: Data.Identification,
        name: Data.Name,
        secondaryIdentification: Data.SecondaryIdentification,
      };
      const report = this.#deps.sim.nameVerification.matchName(this.#openBankingId, request);
      const body = answerBody(report, this.#req.path);
      return withVerdict(
        { status: 200, headers: { 'content-type': 'application/json', [INTERACTION]: this.interactionId }, body },
        check,
      );
    } catch (err) {
      return withVerdict(this.#fail(err), check);
    }
  }
}

const ABSENT: RequestJwsCheck = { status: 'absent' };

/**
 * The answer bodies of the reports that name nothing (decide.ts hands out one frozen object for
 * each, and every full match is one of them), per path: made once, so a repeated answer is the same
 * string, which the signature cache then finds without hashing it again. Paths per report are few
 * (one a participant); the map is emptied past PATHS_KEPT all the same.
 */
const ANSWER_BODIES = new WeakMap<VerificationReport, Map<string, string>>();
const PATHS_KEPT = 64;

function answerBody(report: VerificationReport, path: string): string {
  if (!Object.isFrozen(report)) return serialiseAnswer(report, path);
  let bodies = ANSWER_BODIES.get(report);
  if (!bodies) ANSWER_BODIES.set(report, (bodies = new Map()));
  let body = bodies.get(path);
  if (body === undefined) {
    if (bodies.size >= PATHS_KEPT) bodies.clear();
    body = serialiseAnswer(report, path);
    bodies.set(path, body);
  }
  return body;
}

/** JSON.stringify({ Data: { VerificationReport }, Links: { Self }, Meta: {} }), byte for byte, with only its two values serialised. */
export function serialiseAnswer(report: VerificationReport, path: string): string {
  return `{"Data":{"VerificationReport":${JSON.stringify(report)}},"Links":{"Self":${JSON.stringify(path)}},"Meta":{}}`;
}

/** The Open Banking error answer for anything thrown (a 500, logged, for what is no refusal). */
function errorAnswer(err: unknown, req: ObRequestInfo): ObAnswer {
  const e = toObError(err, req);
  return {
    status: e.status,
    headers: { ...e.headers, 'content-type': 'application/json' },
    body: JSON.stringify(obErrorBody(e.status, e.message, e.errors, e.id)),
  };
}

/** The verdict headers: the status, and for an invalid signature its code, claim and reason. */
function withVerdict(answer: ObAnswer, check: RequestJwsCheck): ObAnswer {
  answer.headers[JWS_STATUS] = check.status;
  const p = check.problem;
  if (p) answer.headers[JWS_PROBLEM] = headerSafe(`${p.code}${p.path ? ` at ${p.path}` : ''}: ${p.message}`);
  return answer;
}

/** Printable ASCII only (claims echoed from the request may hold anything), and not too long. */
function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 500);
}

/** A request-signature problem as the 400 the profile answers (Path: the claim, or the header). */
function signatureError(p: JwsProblem): ObError {
  return new ObError(400, `x-jws-signature: ${p.message}`, [
    { ErrorCode: p.code, Message: p.message, ...(p.path ? { Path: p.path } : {}) },
  ]);
}

/** The open_banking_id that the path names right after /v1/participants/, when it is a participant. */
function participantOfPath(deps: AppDeps, path: string): string | undefined {
  const id = segmentAfterPrefix(path);
  return id !== undefined && deps.sim.participants.find(id) ? id : undefined;
}

/** The path's segment right after /v1/participants/; undefined when there is none (the last path's kept). */
const segmentAfterPrefix = rememberLast((path: string): string | undefined => {
  const start = PARTICIPANTS_PREFIX.length + 1;
  if (path.length <= start || path.charCodeAt(start - 1) !== 47) return undefined; // '/'
  const end = path.indexOf('/', start);
  return end === -1 ? path.slice(start) : path.slice(start, end);
});
