// How the simulator runs, resolved once at start-up from the options (CLI flags) and handed to the
// domain (Simulator) and the app (AppDeps). Where a rule differs between Form3 (`--auth on`) and
// Form3's fake account API (`--auth off`), `resolveMode` is the one place that decides which
// applies: the rest of the code reads what the mode says about its own concern (credentials, the
// account registry's rules, the HTTP wire's), never the `auth` word itself.
// docs/decisions/016-mode-resolved-once.md; every difference: docs/api.md, "Auth on and auth off".

/** The options a mode is resolved from (RuntimeOptions carries them; the CLI sets them). */
export interface ModeOptions {
  /** `on` (default): Form3. `off`: Form3's fake account API (no credentials). */
  auth?: 'on' | 'off' | undefined;
  /** Name verification demands x-fapi-financial-id and a valid x-jws-signature (--cop-strict). */
  copStrict?: boolean | undefined;
  /** Refuse keys a resource's model does not declare (--strict); Form3 ignores them. */
  strict?: boolean | undefined;
  /** Open the seed accounts in an empty store (--seed, --no-seed); undefined: as the mode starts. */
  seedAccounts?: boolean | undefined;
}

/** Whose rules a part of the API follows. */
export type Rules = 'form3' | 'fake-account-api';

export interface Mode {
  /** As started: reported by /health and the start-up banner, never tested to choose a rule. */
  readonly auth: 'on' | 'off';
  /**
   * Whether requests carry credentials (a bearer token or a request signed as Form3's SDK signs
   * it) and act as their client. Without (the fake account API has none), every request acts as
   * the default organisation's anonymous client, which may do anything, and a CoP request's
   * x-jws-signature may be signed with any client's registered key.
   */
  readonly credentials: boolean;
  /**
   * The account registry's rules (src/sim/account-registry.ts): Form3's account-creation rules,
   * scoped to the caller's organisation; or the fake account API's (a name only, any
   * organisation_id accepted, which partitions the records; reads see every organisation).
   */
  readonly accounts: Rules;
  /**
   * How the HTTP surface reads and answers where the fake account API's go-swagger server differs
   * from Form3's (src/api/wire/wire-rules.ts): a body sent without Content-Type (refused, or read as
   * JSON), a path no route serves (Form3's error body, or go-openapi's `{code, message}`), and
   * `Content-Length: 0` on a 204.
   */
  readonly wire: Rules;
  /** Name verification demands x-fapi-financial-id and a valid x-jws-signature. */
  readonly copStrict: boolean;
  /** Keys a resource's model does not declare are refused (400) rather than ignored. */
  readonly strictBodies: boolean;
  /**
   * An empty store opens the seed accounts (fixtures/accounts.json), as Form3's staging holds an
   * organisation's accounts; the fake account API starts empty, so `--auth off` does not, unless
   * asked (`seedAccounts` of the options wins either way).
   */
  readonly seedAccounts: boolean;
  /**
   * An empty store admits the seed payments (fixtures/payments.json), as Form3's staging holds an
   * organisation's payments. The fake account API has no payments to start empty with, so
   * `--auth off` keeps them; `seedAccounts: false` (--no-seed) drops every seed.
   */
  readonly seedPayments: boolean;
}

/** The mode of these options; throws for an auth value that is neither on nor off. */
export function resolveMode(options: ModeOptions = {}): Mode {
  const auth = options.auth ?? 'on';
  if (auth !== 'on' && auth !== 'off') throw new Error(`auth must be on or off, got ${String(auth)}`);
  const fakeAccountApi = auth === 'off';
  return Object.freeze({
    auth,
    credentials: !fakeAccountApi,
    accounts: fakeAccountApi ? 'fake-account-api' : 'form3',
    wire: fakeAccountApi ? 'fake-account-api' : 'form3',
    copStrict: options.copStrict === true,
    strictBodies: options.strict === true,
    seedAccounts: options.seedAccounts ?? !fakeAccountApi,
    seedPayments: options.seedAccounts ?? true,
  });
}
