// The accounts a client's organisation holds on a target, as its API lists them (every page): a
// test compares the list before and after a conformance run to prove the run left nothing behind.
import { clientToken } from '../../features/support/settings.ts';

interface Client {
  client_id: string;
  client_secret: string;
}

export interface ListedAccount {
  id: string;
  attributes: { bank_id?: string; account_number?: string; name?: string[] };
}

export async function listedAccounts(baseUrl: string, client: Client): Promise<ListedAccount[]> {
  const { token, problem } = await clientToken(baseUrl, client.client_id, client.client_secret);
  if (problem) throw new Error(problem);
  const out: ListedAccount[] = [];
  for (let page = 0; ; page++) {
    const res = await fetch(`${baseUrl}/v1/organisation/accounts?page[number]=${page}&page[size]=100`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.status !== 200) throw new Error(`listing accounts: ${res.status} ${await res.text()}`);
    const data = ((await res.json()) as { data: ListedAccount[] }).data;
    out.push(...data);
    if (data.length < 100) return out;
  }
}
