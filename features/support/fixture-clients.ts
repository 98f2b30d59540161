// The clients, bank and name-verification account of the fixtures, which every simulator (in
// process or running) has: targets.ts opens targets with them, and sandbox.ts, preflight.ts and
// cop-preflight.ts read them without importing targets.ts (which imports sandbox.ts).
import type { KeyObject } from 'node:crypto';
import { FENWICK, HARBOUR, NORTHWIND } from '../../src/harness/test-runtime.ts';

/** A client the steps can act as, with the organisation its records belong to. */
export interface TargetClient {
  client_id: string;
  /** The client's id where client_id is an alias of it (the fixtures' northwind-dev); else client_id is the id. */
  uuid?: string;
  client_secret: string;
  organisation_id: string;
  /** When set, requests are signed with this key (Form3's request signing) instead of a token. */
  signing?: { key_id: string; key: KeyObject };
  /** A sort code and BIC registered to its organisation, when the harness knows one (the fixtures). */
  bank?: { sort_code: string; bic: string };
}

/** The fixture clients every simulator (in process or running) has. */
const fixtureClient = (c: typeof NORTHWIND): TargetClient => ({
  ...c,
  bank: { sort_code: c.bank.bank_id, bic: c.bank.bic },
});
export const FIXTURE_CLIENTS: Record<string, TargetClient> = {
  default: fixtureClient(NORTHWIND),
  northwind: fixtureClient(NORTHWIND),
  harbour: fixtureClient(HARBOUR),
  fenwick: fixtureClient(FENWICK),
};

/** The fixtures' default organisation (Northwind) holds sort code 400300 (fixtures/participants.json). */
export const FIXTURE_BANK = { sort_code: '400300', bic: 'NWBKGB22' };
/** A seed account of fixtures/accounts.json at Northwind's participant (docs/cop.md, the seed table). */
export const FIXTURE_COP = {
  participant: '0015800001041REAAY',
  account: '40030012345678',
  name: 'Samantha Holder',
  type: 'Personal',
} as const;
