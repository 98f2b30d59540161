import type { Simulator } from '../sim/simulator.ts';
import type { ClientRegistry } from './auth/clients.ts';
import type { TokenIssuer } from './auth/tokens.ts';

/** What every route can read from the context. */
export interface AppEnv {
  Variables: {
    /** The organisation of the caller's client (the default organisation with --auth off). */
    organisationId: string;
    clientId: string;
  };
}

export interface AppDeps {
  sim: Simulator;
  clients: ClientRegistry;
  tokens: TokenIssuer;
  /** `off` lets a local user call without tokens, as the default organisation. */
  auth: 'on' | 'off';
  /** Name verification demands x-fapi-financial-id and x-jws-signature. */
  copStrict?: boolean;
}
