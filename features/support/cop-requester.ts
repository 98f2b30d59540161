// The harness as a Confirmation of Payee requester: the identity it signs name-verification
// requests with (x-jws-signature, by the package's own signCopRequest) and where it finds the
// responder's published keys to verify every answer (verifyCopResponse). One identity per target:
// staging's comes from the CONFORMANCE_COP_SIGNING_* settings, the simulator's is the bundled
// development key that fixtures/clients.json registers for northwind-dev.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Settings } from './settings.ts';

export type JwsProfile = '3.1.4' | '3.1.3';

export interface CopRequester {
  /** PKCS#8 PEM of the requester's private key. */
  key: string;
  /** The key's id, as registered with the responder. */
  kid: string;
  /** The requester's Open Banking id (iss). */
  iss: string;
  /** The message-signing profile requests are signed in and answers are verified in. */
  profile: JwsProfile;
  /** Where the JWKS of a participant is published. */
  jwksUrl(baseUrl: string, participant: string): string;
}

/** The settings of the requester's signing identity, for the preflight's messages and the docs. */
export const COP_SIGNING_SETTINGS = [
  {
    name: 'CONFORMANCE_COP_SIGNING_KEY',
    about: 'the path of the requester’s private key (PKCS#8 PEM) for x-jws-signature',
  },
  { name: 'CONFORMANCE_COP_SIGNING_KID', about: 'the id under which the responder knows that key' },
] as const;

/** The development key fixtures/clients.json registers for northwind-dev (a sandbox's copy holds it too). */
export const BUNDLED_KEY_FILE = fileURLToPath(
  new URL('../../fixtures/keys/northwind-dev-signing.pem', import.meta.url),
);
const BUNDLED_CLIENTS = new URL('../../fixtures/clients.json', import.meta.url);
/** Northwind's participant (fixtures/participants.json): the iss of its development client. */
export const BUNDLED_ISS = '0015800001041REAAY';
/** Where the simulator publishes a participant's JWKS (docs/cop.md). */
export const defaultJwksUrl = (baseUrl: string, participant: string): string =>
  `${baseUrl}/v1/participants/${participant}/jwks.json`;

/** The development key of northwind-dev as fixtures/clients.json registers it (its first public key). */
export function bundledRequester(profile: JwsProfile = '3.1.4'): CopRequester {
  const clients = JSON.parse(readFileSync(BUNDLED_CLIENTS, 'utf8')) as Array<{
    aliases?: string[];
    public_keys?: Array<{ key_id: string }>;
  }>;
  const northwind = clients.find((c) => c.aliases?.includes('northwind-dev'));
  const kid = northwind?.public_keys?.[0]?.key_id;
  if (!kid) throw new Error('fixtures/clients.json registers no public key for northwind-dev');
  return { key: readFileSync(BUNDLED_KEY_FILE, 'utf8'), kid, iss: BUNDLED_ISS, profile, jwksUrl: defaultJwksUrl };
}

/** CONFORMANCE_COP_JWS_PROFILE: the profile requests are signed in and answers verified in (default 3.1.4). */
export function profileSetting(settings: Settings): JwsProfile {
  const p = settings.CONFORMANCE_COP_JWS_PROFILE ?? '3.1.4';
  if (p !== '3.1.4' && p !== '3.1.3') throw new Error(`CONFORMANCE_COP_JWS_PROFILE must be 3.1.4 or 3.1.3, got ${p}`);
  return p;
}

/**
 * The identity the settings name, or undefined when neither CONFORMANCE_COP_SIGNING_KEY nor
 * _KID is set. Throws, naming the setting, when only one is set, the key cannot be read, or a
 * value is of the wrong form: the preflight turns that into its one line.
 */
export function requesterFromSettings(settings: Settings): CopRequester | undefined {
  const keyFile = settings.CONFORMANCE_COP_SIGNING_KEY;
  const kid = settings.CONFORMANCE_COP_SIGNING_KID;
  if (!keyFile && !kid) return undefined;
  if (!keyFile || !kid) {
    const missing = COP_SIGNING_SETTINGS.find((s) => !settings[s.name])!;
    throw new Error(
      `${missing.name} (${missing.about}) must be set with ${keyFile ? 'CONFORMANCE_COP_SIGNING_KEY' : 'CONFORMANCE_COP_SIGNING_KID'}`,
    );
  }
  let key: string;
  try {
    key = readFileSync(keyFile, 'utf8');
  } catch (err) {
    throw new Error(`CONFORMANCE_COP_SIGNING_KEY ${keyFile} cannot be read: ${(err as Error).message}`);
  }
  if (!key.includes('-----BEGIN PRIVATE KEY-----'))
    throw new Error(
      `CONFORMANCE_COP_SIGNING_KEY ${keyFile} is not a PKCS#8 PEM private key (-----BEGIN PRIVATE KEY-----)`,
    );
  const iss = settings.CONFORMANCE_COP_SIGNING_ISS ?? settings.CONFORMANCE_COP_PARTICIPANT_ID;
  if (!iss)
    throw new Error(
      'CONFORMANCE_COP_SIGNING_ISS (the requester’s Open Banking id) or CONFORMANCE_COP_PARTICIPANT_ID must be set',
    );
  return {
    key,
    kid,
    iss,
    profile: profileSetting(settings),
    jwksUrl: jwksUrlOf(settings),
  };
}

/**
 * CONFORMANCE_COP_JWKS_URL: where a participant's JWKS is published, `{participant}` standing for
 * its id and `{base}` for CONFORMANCE_BASE_URL; default the simulator's path under the base URL.
 */
export function jwksUrlOf(settings: Settings): CopRequester['jwksUrl'] {
  const template = settings.CONFORMANCE_COP_JWKS_URL;
  if (template === undefined) return defaultJwksUrl;
  if (!/^(https?:\/\/|\{base\})/.test(template))
    throw new Error(
      `CONFORMANCE_COP_JWKS_URL must be an http(s) URL or start with {base}, with {participant} where the id goes; got ${template}`,
    );
  return (baseUrl, participant) => template.replaceAll('{participant}', participant).replaceAll('{base}', baseUrl);
}

/**
 * The requester on a running simulator: the settings' identity where given (a simulator started
 * with clients of its own), else the bundled development key, in the settings' profile.
 */
export function simulatorRequester(settings: Settings): CopRequester {
  return requesterFromSettings(settings) ?? bundledRequester(profileSetting(settings));
}

const NAME_VERIFICATION = /^\/v1\/participants\/([^/?]+)\/open-banking\/v3\.1\/accounts\/name-verification$/;

/** The participant a path asks for a name verification, or undefined for any other path. */
export function nameVerificationParticipant(path: string): string | undefined {
  return NAME_VERIFICATION.exec(path)?.[1];
}

const PARTICIPANT_PATH = /^\/v1\/participants\/([^/?]+)\/(?!jwks\.json$)/;

/** The participant whose answer a path gets (every path under it but its JWKS), or undefined. */
export function answeringParticipant(path: string): string | undefined {
  return PARTICIPANT_PATH.exec(path)?.[1];
}
