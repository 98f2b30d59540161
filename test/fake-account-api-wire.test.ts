import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NORTHWIND } from '../src/harness/test-runtime.ts';
import { listen, type RunningServer } from '../src/node/server.ts';
import { createRuntime } from '../src/runtime.ts';
import { FAKE_ACCOUNT_API_ATTRIBUTES } from '../src/sim/account-registry.ts';
import { goRequest, sendRaw } from './support/raw-http.ts';
import { NORTHWIND_COP_PATH } from './support/testing.ts';

// Clients written for Form3's public fake account API (form3tech-oss/interview-accountapi), run
// unchanged against `--auth off`: each difference between the two modes (docs/api.md, "Auth on and
// auth off") with the bytes such a client writes (Go's net/http: no Content-Type unless set,
// application/vnd.api+json where the client sets it, attributes the fake API's model lacks, no
// `type`), sent over a socket to a listening simulator, and the same bytes against `--auth on`
// (with a token) to show that mode keeps Form3's behaviour.

const P = 'validation failure list:';
const ACCOUNTS = '/v1/organisation/accounts';
const JSON_API = { Accept: 'application/vnd.api+json', 'Content-Type': 'application/vnd.api+json' };

let off: RunningServer;
let on: RunningServer;
let token: string;
beforeAll(async () => {
  const options = { memory: true, seedAccounts: false, scheduledReports: false } as const;
  off = await listen(await createRuntime({ ...options, auth: 'off' }), 0);
  on = await listen(await createRuntime(options), 0);
  const basic = Buffer.from(`${NORTHWIND.client_id}:${NORTHWIND.client_secret}`).toString('base64');
  const res = await fetch(`${on.url}/v1/oauth2/token`, {
    method: 'POST',
    headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  token = ((await res.json()) as { access_token: string }).access_token;
});
afterAll(async () => {
  await off.close();
  await on.close();
});

/** The request against the server; with auth on it carries the bearer token. */
function send(server: RunningServer, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const withAuth = server === on ? { ...headers, Authorization: `Bearer ${token}` } : headers;
  const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return sendRaw(goRequest(method, `${server.url}${path}`, withAuth, text));
}

/** An account as a fake-API client builds it (Northwind's sort code and BIC, so Form3's rules pass too). */
function account(attributes: Record<string, unknown> = {}, data: Record<string, unknown> = {}) {
  return {
    data: {
      id: randomUUID(),
      organisation_id: NORTHWIND.organisation_id,
      type: 'accounts',
      attributes: { country: 'GB', ...NORTHWIND.bank, name: ['Sam Holder'], ...attributes },
      ...data,
    },
  };
}

const errorOf = (answer: { body: string }) => (JSON.parse(answer.body) as { error_message: string }).error_message;

describe('`type` of a create', () => {
  it('missing: the fake API refuses it in its nested wording; Form3 fills it in', async () => {
    const body = account({ account_number: '41426819' });
    delete (body.data as { type?: string }).type;
    const refused = await send(off, 'POST', ACCOUNTS, JSON_API, body);
    expect(refused.status, refused.text).toBe(400);
    expect(errorOf(refused)).toBe(`${P}\n${P}\ntype in body is required`);
    const created = await send(on, 'POST', ACCOUNTS, JSON_API, body);
    expect(created.status, created.text).toBe(201);
    expect(JSON.parse(created.body).data.type).toBe('accounts');
  });

  it("invalid: the fake API's words, byte for byte, in both modes", async () => {
    for (const server of [off, on]) {
      const refused = await send(server, 'POST', ACCOUNTS, JSON_API, account({}, { type: 'account' }));
      expect(refused.status, refused.text).toBe(400);
      expect(errorOf(refused)).toBe(`${P}\n${P}\ntype in body should be one of [accounts]`);
    }
  });
});

describe('validation failures', () => {
  // The nesting and order fake-API client tests assert (an empty `data`; bad ids, country and type).
  it("read as the fake API's, byte for byte", async () => {
    const cases: [unknown, string][] = [
      [
        { data: {} },
        `${P}\n${P}\nattributes in body is required\nid in body is required\norganisation_id in body is required\ntype in body is required`,
      ],
      [
        { data: { id: '123abc', organisation_id: '123abc', type: 'x', attributes: { country: 'SVK', name: ['Sam'] } } },
        `${P}\n${P}\n${P}\ncountry in body should match '^[A-Z]{2}$'\nid in body must be of type uuid: "123abc"\norganisation_id in body must be of type uuid: "123abc"\ntype in body should be one of [accounts]`,
      ],
    ];
    for (const [body, message] of cases) {
      const refused = await send(off, 'POST', ACCOUNTS, {}, body);
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body).toBe(JSON.stringify({ error_message: message }));
    }
  });

  // A Go client's zero-valued attributes (pointers to "", `type` and `name` left out by omitempty):
  // the lines fake-API clients assert (../shared/reference/form3-contract.md §13).
  it("of the attribute enums are the fake API's model's; Form3's schema words its own", async () => {
    const body = {
      data: {
        id: randomUUID(),
        organisation_id: NORTHWIND.organisation_id,
        attributes: { account_classification: '', country: '', status: '' },
      },
    };
    const refused = await send(off, 'POST', ACCOUNTS, JSON_API, body);
    expect(refused.status, refused.text).toBe(400);
    expect(errorOf(refused)).toBe(
      `${P}\n${P}\n${P}\naccount_classification in body should be one of [Personal Business]\ncountry in body should match '^[A-Z]{2}$'\nname in body is required\nstatus in body should be one of [pending confirmed failed]\ntype in body is required`,
    );
    const form3 = await send(on, 'POST', ACCOUNTS, JSON_API, body);
    expect(form3.status, form3.text).toBe(400);
    expect(errorOf(form3)).toMatch(/account_classification in body should match '\^\(\[Pp\]/);
    // Form3's model holds `status` as a Go string: "" is not given (the fake API's, a pointer).
    expect(errorOf(form3)).not.toContain('status in body');
  });

  it('refuse values only Form3 allows (`personal`, `closed`) under the fake API', async () => {
    for (const [attribute, value, words] of [
      ['account_classification', 'personal', 'should be one of [Personal Business]'],
      ['status', 'closed', 'should be one of [pending confirmed failed]'],
    ] as const) {
      const refused = await send(off, 'POST', ACCOUNTS, JSON_API, account({ [attribute]: value }));
      expect(refused.status, refused.text).toBe(400);
      expect(errorOf(refused)).toBe(`${P}\n${P}\n${P}\n${attribute} in body ${words}`);
      const created = await send(on, 'POST', ACCOUNTS, JSON_API, account({ [attribute]: value }));
      expect(created.status, created.text).toBe(201);
    }
    const accepted = await send(
      off,
      'POST',
      ACCOUNTS,
      JSON_API,
      account({ account_classification: 'Business', status: 'confirmed' }),
    );
    expect(accepted.status, accepted.text).toBe(201);
  });

  it('refuse an enum attribute of another type, once', async () => {
    const refused = await send(off, 'POST', ACCOUNTS, JSON_API, account({ account_classification: 7, status: 7 }));
    expect(refused.status, refused.text).toBe(400);
    expect(errorOf(refused)).toBe(
      `${P}\n${P}\n${P}\naccount_classification in body must be of type string\nstatus in body should be one of [pending confirmed failed]`,
    );
  });
});

describe('GET /v1/health', () => {
  it('is the fake API\'s `{"status":"up"}`; Form3\'s API has no such route', async () => {
    const up = await send(off, 'GET', '/v1/health', {});
    expect(up.status).toBe(200);
    expect(up.body).toBe('{"status":"up"}');
    const form3 = await send(on, 'GET', '/v1/health', {});
    expect(form3.status).toBe(404);
  });
});

describe('the version of a create', () => {
  it("is any integer under the fake API (its model's int64 has no rule), answered 0; Form3's must be 0", async () => {
    const body = account({ account_number: '41426810' }, { version: 1_000_000_000 });
    const created = await send(off, 'POST', ACCOUNTS, JSON_API, body);
    expect(created.status, created.text).toBe(201);
    expect(JSON.parse(created.body).data.version).toBe(0);
    const refused = await send(on, 'POST', ACCOUNTS, JSON_API, body);
    expect(refused.status, refused.text).toBe(400);
    expect(errorOf(refused)).toBe(`${P}\n${P}\nversion in body should be equal to 0`);
  });
});

describe('a body sent without Content-Type', () => {
  it('is read as JSON by the fake API; Form3 answers 415', async () => {
    const body = account({ account_number: '41426820' });
    const created = await send(off, 'POST', ACCOUNTS, {}, body);
    expect(created.status, created.text).toBe(201);
    expect(JSON.parse(created.body).data.id).toBe(body.data.id);
    const refused = await send(on, 'POST', ACCOUNTS, {}, body);
    expect(refused.status, refused.text).toBe(415);
    expect(errorOf(refused)).toContain('Content-Type must be application/json or application/vnd.api+json, got none');
  });
});

describe('a body sent as application/vnd.Form3+json', () => {
  it('is read as JSON by the fake API (a media type matches in any case); Form3 answers 415', async () => {
    const body = account({ account_number: '41426821' });
    const headers = { 'Content-Type': 'application/vnd.Form3+json' };
    const created = await send(off, 'POST', ACCOUNTS, headers, body);
    expect(created.status, created.text).toBe(201);
    const refused = await send(on, 'POST', ACCOUNTS, headers, body);
    expect(refused.status, refused.text).toBe(415);
    expect(errorOf(refused)).toContain('got application/vnd.form3+json');
    const other = await send(off, 'POST', ACCOUNTS, { 'Content-Type': 'text/plain' }, account());
    expect(other.status, other.text).toBe(415);
    expect(errorOf(other)).toBe(
      'Content-Type must be application/json, application/vnd.api+json or application/vnd.form3+json, got text/plain',
    );
  });
});

describe("attributes the fake API's model does not have", () => {
  const extras = {
    validation_type: 'card',
    reference_mask: '############',
    acceptance_qualifier: 'same_day',
    private_identification: { identification: '12345' },
    customer_id: 'fake-api-client',
    name_matching_status: 'opted_out',
  };

  it('are stored but not answered by the fake API (create, fetch, list); Form3 answers them', async () => {
    const body = account({ account_number: '41426821', ...extras });
    const created = await send(off, 'POST', ACCOUNTS, JSON_API, body);
    expect(created.status, created.text).toBe(201);
    const fetched = await send(off, 'GET', `${ACCOUNTS}/${body.data.id}`, JSON_API);
    const listed = await send(off, 'GET', `${ACCOUNTS}?filter%5Baccount_number%5D=41426821`, JSON_API);
    for (const attributes of [
      JSON.parse(created.body).data.attributes,
      JSON.parse(fetched.body).data.attributes,
      JSON.parse(listed.body).data[0].attributes,
    ]) {
      expect(Object.keys(attributes).every((k) => (FAKE_ACCOUNT_API_ATTRIBUTES as readonly string[]).includes(k))).toBe(
        true,
      );
      expect(attributes).toMatchObject({ account_number: '41426821', name: ['Sam Holder'], country: 'GB' });
    }
    const onBody = account({ account_number: '41426821', ...extras });
    const onCreated = await send(on, 'POST', ACCOUNTS, JSON_API, onBody);
    expect(onCreated.status, onCreated.text).toBe(201);
    expect(JSON.parse(onCreated.body).data.attributes).toMatchObject(extras);
  });

  it('still decide name verification under the fake API: an account opted out by name_matching_status', async () => {
    const body = account({ account_number: '41426822', ...extras });
    expect((await send(off, 'POST', ACCOUNTS, JSON_API, body)).status).toBe(201);
    const asked = await send(
      off,
      'POST',
      NORTHWIND_COP_PATH,
      { 'Content-Type': 'application/json', Accept: 'application/json' },
      {
        Data: {
          SchemeName: 'SortCodeAccountNumber',
          AccountType: 'Personal',
          Identification: '40030041426822',
          Name: 'Sam Holder',
        },
      },
    );
    expect(asked.status, asked.text).toBe(200);
    expect(JSON.parse(asked.body).Data.VerificationReport).toMatchObject({ Matched: false, ReasonCode: 'OPTO' });
  });
});

describe('a sort code and account number registered twice', () => {
  it('is two accounts under the fake API (only the id is unique); a 409 under Form3', async () => {
    for (const [server, second] of [
      [off, 201],
      [on, 409],
    ] as const) {
      expect((await send(server, 'POST', ACCOUNTS, JSON_API, account({ account_number: '41426830' }))).status).toBe(
        201,
      );
      const again = await send(server, 'POST', ACCOUNTS, JSON_API, account({ account_number: '41426830' }));
      expect(again.status, again.text).toBe(second);
    }
  });
});

describe('a route no one serves', () => {
  // The paths fake-API clients assert this body for: `GET /` and `POST /` (a client given an empty
  // path) and `DELETE /v1/organisation/accounts/?version=` (an empty id and version).
  it("is the fake API's PAGE_NOT_FOUND, without error_message; Form3's error body otherwise", async () => {
    const mistyped = `/v1/organisation/account/${randomUUID()}`;
    for (const [method, path] of [
      ['GET', mistyped],
      ['GET', '/'],
      ['POST', '/'],
      ['DELETE', `${ACCOUNTS}/?version=`],
    ] as const) {
      const missing = await send(off, method, path, {}, method === 'POST' ? '{"data":{}}' : undefined);
      expect(missing.status, `${method} ${path}`).toBe(404);
      expect(missing.body, `${method} ${path}`).toBe('{"code":"PAGE_NOT_FOUND","message":"Page not found"}');
    }
    const onMissing = await send(on, 'GET', mistyped, JSON_API);
    expect(onMissing.status).toBe(404);
    expect(errorOf(onMissing)).toBe(`route GET ${mistyped} not found`);
  });
});

describe('an error body', () => {
  // Fake-API clients compare the whole body: `{"error_message":"record <id> does not exist"}`.
  it("is error_message alone under the fake API; Form3's carries an error_code", async () => {
    const unknown = randomUUID();
    for (const [path, status, message] of [
      [`${ACCOUNTS}/${unknown}`, 404, `record ${unknown} does not exist`],
      [`${ACCOUNTS}/4567`, 400, 'id is not a valid uuid'],
    ] as const) {
      const answer = await send(off, 'GET', path, {});
      expect(answer.status).toBe(status);
      expect(answer.body).toBe(JSON.stringify({ error_message: message }));
      const onAnswer = await send(on, 'GET', path, JSON_API);
      expect(onAnswer.status).toBe(status);
      expect(JSON.parse(onAnswer.body)).toEqual({ error_message: message, error_code: expect.any(String) });
    }
    const body = account({ account_number: '41426850' });
    expect((await send(off, 'POST', ACCOUNTS, {}, body)).status).toBe(201);
    const duplicate = await send(off, 'POST', ACCOUNTS, {}, body);
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toBe('{"error_message":"Account cannot be created as it violates a duplicate constraint"}');
  });
});

describe('a DELETE whose version is missing or not a number', () => {
  it("is the fake API's `invalid version number`; Form3's names the rule", async () => {
    const body = account({ account_number: '41426851' });
    expect((await send(off, 'POST', ACCOUNTS, {}, body)).status).toBe(201);
    const path = `${ACCOUNTS}/${body.data.id}`;
    for (const query of ['?version=', '', '?version=abc']) {
      const refused = await send(off, 'DELETE', `${path}${query}`, {});
      expect(refused.status, query).toBe(400);
      expect(refused.body, query).toBe('{"error_message":"invalid version number"}');
    }
    const onBody = account({ account_number: '41426851' });
    expect((await send(on, 'POST', ACCOUNTS, JSON_API, onBody)).status).toBe(201);
    const onRefused = await send(on, 'DELETE', `${ACCOUNTS}/${onBody.data.id}?version=`, JSON_API);
    expect(onRefused.status).toBe(400);
    expect(errorOf(onRefused)).toBe('version in query is required');
  });
});

describe('answers without a body', () => {
  it('say Content-Length: 0, a 204 too under the fake API; a 204 has none under Form3', async () => {
    for (const server of [off, on]) {
      const unknown = await send(server, 'DELETE', `${ACCOUNTS}/${randomUUID()}?version=0`, JSON_API);
      expect(unknown.status).toBe(404);
      expect(unknown.headers['content-length'], unknown.text).toBe('0');
      expect(unknown.headers['transfer-encoding']).toBeUndefined();
      expect(unknown.body).toBe('');
    }
    const body = account({ account_number: '41426840' });
    expect((await send(off, 'POST', ACCOUNTS, JSON_API, body)).status).toBe(201);
    const deleted = await send(off, 'DELETE', `${ACCOUNTS}/${body.data.id}?version=0`, JSON_API);
    expect(deleted.status).toBe(204);
    expect(deleted.headers['content-length'], deleted.text).toBe('0');
    const onBody = account({ account_number: '41426840' });
    expect((await send(on, 'POST', ACCOUNTS, JSON_API, onBody)).status).toBe(201);
    const onDeleted = await send(on, 'DELETE', `${ACCOUNTS}/${onBody.data.id}?version=0`, JSON_API);
    expect(onDeleted.status).toBe(204);
    expect(onDeleted.headers['content-length'], onDeleted.text).toBeUndefined();
  });
});

describe('the client of a request without credentials', () => {
  it("is a UUID, as a subscription's user_id is in Form3's model", async () => {
    const created = await send(off, 'POST', '/v1/notification/subscriptions', JSON_API, {
      data: {
        id: randomUUID(),
        organisation_id: NORTHWIND.organisation_id,
        type: 'subscriptions',
        attributes: {
          callback_uri: 'http://127.0.0.1:9/hooks',
          callback_transport: 'http',
          event_type: 'created',
          record_type: 'accounts',
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(JSON.parse(created.body).data.attributes.user_id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
  });
});
