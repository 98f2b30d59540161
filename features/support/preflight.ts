// The preflight: before the first scenario, a target's settings are all there, it can be reached
// with them, and (staging) each setting holds on the target. Every problem is one line; the run
// stops there (exit 2) rather than failing each scenario the same way.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { form3SignedHeaders } from '../../src/index.ts';
import { copPreflight } from './cop-preflight.ts';
import { requesterFromSettings } from './cop-requester.ts';
import { FIXTURE_CLIENTS } from './fixture-clients.ts';
import { enterSandbox, sandboxInUse } from './sandbox.ts';
import {
  missingSettings,
  reachTarget,
  reachTargetSigned,
  readSettings,
  type Settings,
  settingsOf,
} from './settings.ts';
import { simTargetProblem } from './sim-target.ts';
import { type Answer, type Send, settingsAgainstTarget } from './target-settings.ts';

/** Every problem of the target's settings, one line each; none when the run may start. */
export async function preflightProblems(target: string, given: Settings = readSettings()): Promise<string[]> {
  const missing = missingSettings(target, settingsOf(target), given);
  if (missing) return [missing];
  // CONFORMANCE_SANDBOX: the run's settings become the sandbox's (created now for `new`).
  const entered = await enterSandbox(target, given);
  if (entered.problem !== undefined) return [entered.problem];
  const { settings } = entered;
  if (target === 'staging') return stagingProblems(settings);
  if (target === 'sim') {
    const sandbox = sandboxInUse();
    const client = FIXTURE_CLIENTS.default!;
    const credentials = {
      client_id: settings.SIM_CLIENT_ID ?? client.client_id,
      client_secret: settings.SIM_CLIENT_SECRET ?? client.client_secret,
    };
    const problem =
      (await reachTarget(settings.SIM_BASE_URL!, credentials.client_id, credentials.client_secret)) ??
      (await simTargetProblem(settings.SIM_BASE_URL!, {
        ...credentials,
        resets: settings.SIM_RESET !== '0',
        // A sandbox made for the run holds nothing but the run's own.
        resetOk: settings.SIM_RESET_OK === '1' || !!sandbox?.created,
        ...(sandbox ? { sandbox: sandbox.sandbox.id } : {}),
      })) ??
      // Name verification as the simulator answers it: signed requests where it demands them.
      (await copPreflight('sim', settings));
    return problem ? [problem] : [];
  }
  return [];
}

async function stagingProblems(settings: Settings): Promise<string[]> {
  const base = settings.CONFORMANCE_BASE_URL!.replace(/\/$/, '');
  const keyId = settings.CONFORMANCE_SIGNING_KEY_ID;
  const keyFile = settings.CONFORMANCE_SIGNING_KEY;
  let key: KeyObject | undefined;
  if (keyId && keyFile) {
    try {
      key = createPrivateKey(readFileSync(keyFile));
    } catch (err) {
      return [`CONFORMANCE_SIGNING_KEY ${keyFile} cannot be used: ${(err as Error).message}`];
    }
    const problem = await reachTargetSigned(base, (url) => form3SignedHeaders(url, 'GET', undefined, keyId, key!));
    if (problem) return [problem];
  } else {
    const problem = await reachTarget(base, settings.CONFORMANCE_CLIENT_ID!, settings.CONFORMANCE_CLIENT_SECRET!);
    if (problem) return [problem];
  }
  // Name verification as staging answers it: signed requests where it demands them, answers that verify.
  const cop = await copPreflight('staging', settings);
  if (cop) return [cop];
  const requester = requesterFromSettings(settings);
  const withToken = settings.CONFORMANCE_CLIENT_SECRET ? await tokenSender(base, settings) : undefined;
  if (!key) return settingsAgainstTarget(settings, withToken!, requester);
  // As the steps send them (world.ts): signed, but name verification (/v1/participants) keeps the
  // bearer token, its profile's own authentication.
  const signed = signedSender(base, keyId!, key);
  const send: Send = (method, path, body, headers) =>
    (path.startsWith('/v1/participants') && withToken ? withToken : signed)(method, path, body, headers);
  return settingsAgainstTarget(settings, send, requester);
}

async function answerOf(res: Response): Promise<Answer> {
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}

async function tokenSender(base: string, settings: Settings): Promise<Send> {
  const basic = Buffer.from(`${settings.CONFORMANCE_CLIENT_ID}:${settings.CONFORMANCE_CLIENT_SECRET}`).toString(
    'base64',
  );
  const token = (
    (await (
      await fetch(`${base}/v1/oauth2/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      })
    ).json()) as { access_token: string }
  ).access_token;
  return async (method, path, body, headers = {}) =>
    answerOf(
      await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(10_000),
      }),
    );
}

function signedSender(base: string, keyId: string, key: KeyObject): Send {
  return async (method, path, body, headers = {}) => {
    const url = new URL(`${base}${path}`);
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const signed = form3SignedHeaders(url, method, text, keyId, key, new Date(), text ? 'application/json' : null);
    return answerOf(
      await fetch(url, {
        method,
        headers: { ...signed, ...headers },
        ...(text !== undefined ? { body: text } : {}),
        signal: AbortSignal.timeout(10_000),
      }),
    );
  };
}
