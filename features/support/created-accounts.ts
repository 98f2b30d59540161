// Every account a scenario creates on the target is deleted after the scenario, passed or failed,
// so a run against a long-lived target (staging) leaves none of its accounts behind: world.send
// hands each 201 of POST /v1/organisation/accounts here, and hooks.ts runs the removals.
import type { LastResponse, Scenario } from './scenario.ts';

const ACCOUNTS = '/v1/organisation/accounts';

/** After a request: when it created an account, registers the account's removal with the world. */
export function removeAccountAfterwards(world: Scenario, method: string, path: string, res: LastResponse): void {
  if (method !== 'POST' || path.split('?')[0] !== ACCOUNTS || res.status !== 201) return;
  const data = (res.json as { data?: { id?: string; version?: number } } | undefined)?.data;
  if (!data?.id) return;
  const { id, version = 0 } = data;
  // As the client that created it (a scenario may act as another organisation later).
  const client = world.client;
  world.afterwards(`account ${id}`, async () => {
    world.client = client;
    // Headers the scenario set for its own requests (a wrong Accept, say) are not the removal's.
    for (const name of Object.keys(world.headers)) delete world.headers[name];
    let gone = await world.send('DELETE', `${ACCOUNTS}/${id}?version=${version}`);
    if (gone.status === 409) {
      // The scenario changed it since: delete the version it has now.
      const now = await world.send('GET', `${ACCOUNTS}/${id}`);
      const current = (now.json as { data?: { version?: number } } | undefined)?.data?.version;
      gone = await world.send('DELETE', `${ACCOUNTS}/${id}?version=${current}`);
    }
    // 404: the scenario deleted it itself (or it belonged to a target the scenario has since replaced).
    if (gone.status !== 204 && gone.status !== 404)
      throw new Error(`DELETE ${ACCOUNTS}/${id} answered ${gone.status} ${gone.text.slice(0, 200)}`);
  });
}
