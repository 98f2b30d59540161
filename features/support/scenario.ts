// What the support helpers that world.send calls (cop-signing.ts, created-accounts.ts) may use of a
// scenario's world, as types of their own: they take a Scenario, not the SimWorld that imports
// them, so no import circle runs through world.ts (test/layers.test.ts checks for one).
import type { Target } from './targets.ts';

/** A response as the steps read it: status, headers, the body as text, parsed JSON and bytes. */
export interface LastResponse {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
  bytes: Uint8Array;
}

/** The parts of a scenario's world (world.ts's SimWorld) that the helpers it calls act on. */
export interface Scenario {
  target: Target;
  /** Named client whose token requests carry; null sends no Authorization header. */
  client: string | null;
  readonly vars: Record<string, string>;
  readonly headers: Record<string, string>;
  readonly state: Record<string, unknown>;
  wallNow(): Date;
  afterwards(what: string, run: () => Promise<void>): void;
  send(method: string, path: string): Promise<LastResponse>;
}
