// The published document says what the double enforces: bodies an independent generator
// (json-schema-faker) makes from /v1/openapi.json, for every POST that takes one, are accepted,
// except where a rule the operation's description names refuses them with the error it names.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { createGenerator } from 'json-schema-faker';
import { describe, expect, it } from 'vitest';
import { documentedAnswers } from '../../features/generate/api-document.ts';
import { claimAttributes } from '../harness/claim-attributes.ts';
import { NORTHWIND, type TestRuntime, testRuntime } from '../harness/test-runtime.ts';

const SEED = 44;
/** Bodies sent per operation; the generator may take up to ten times as many to make them. */
const BODIES = 60;
/** Northwind's participant: name verification is asked of it. */
const OPEN_BANKING_ID = '0015800001041REAAY';

type Json = Record<string, any>;

/** One documented answer: its status and the pattern of its error line (read as generated checks read it). */
type Answer = ReturnType<typeof documentedAnswers>[number];

/**
 * Whether a refusal is one the description names: its status is documented, and its message,
 * without go-swagger's `validation failure list:` headings, is documented lines one after another
 * (joined by a new line, or by `; ` where the domain lists several).
 */
function isDocumented(status: number, message: string, answers: readonly Answer[]): boolean {
  const lines = answers.filter((a) => a.status === status).map((a) => `(?:${a.line.source})`);
  if (lines.length === 0) return false;
  const text = message.replace(/validation failure list:\s*/g, '').trim();
  const one = lines.join('|');
  return new RegExp(`^(?:${one})(?:(?:\\n|; )(?:${one}))*$`).test(text);
}

function errorMessageOf(text: string): string {
  try {
    const body = JSON.parse(text) as Json;
    return String(body.error_message ?? body.Message ?? text);
  } catch {
    return text;
  }
}

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

/**
 * What a body is sent with: where (the path's parameters filled in) and, where the request must
 * quote an earlier answer, the body changed to quote it. The caller is Northwind, an administrator
 * of the simulator, so it may make every request.
 */
type Target = (rt: TestRuntime, body: Json) => Promise<{ path: string; body: Json }>;

const claimBody = () => ({
  data: {
    id: crypto.randomUUID(),
    organisation_id: NORTHWIND.organisation_id,
    type: 'claims',
    attributes: claimAttributes(),
  },
});

async function created(rt: TestRuntime, path: string, body: Json): Promise<Json> {
  const res = await rt.call('POST', path, body);
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Json;
}

/** A claim of the caller's, submitted (and, with `processed`, given its sequence number a working day later). */
async function submittedClaim(rt: TestRuntime): Promise<{ claimId: string; sequence: () => Promise<string> }> {
  const claim = claimBody();
  const submission = {
    data: { id: crypto.randomUUID(), organisation_id: NORTHWIND.organisation_id, type: 'claim_submissions' },
  };
  await created(rt, '/v1/transaction/claims', claim);
  await created(rt, `/v1/transaction/claims/${claim.data.id}/submissions`, submission);
  return {
    claimId: claim.data.id,
    sequence: async () => {
      const res = await rt.call('GET', `/v1/transaction/claims/${claim.data.id}/submissions/${submission.data.id}`);
      return ((await res.json()) as Json).data.attributes.sequence_number as string;
    },
  };
}

/** Where each body goes, by the document's path; a path not named here needs no earlier answer. */
const TARGETS: Record<string, Target> = {
  '/v1/participants/{open_banking_id}/open-banking/v3.1/accounts/name-verification': async (_rt, body) => ({
    path: `/v1/participants/${OPEN_BANKING_ID}/open-banking/v3.1/accounts/name-verification`,
    body,
  }),
  '/v1/transaction/claims/{id}/submissions': async (rt, body) => {
    const claim = claimBody();
    await created(rt, '/v1/transaction/claims', claim);
    return { path: `/v1/transaction/claims/${claim.data.id}/submissions`, body };
  },
  // A reversal quotes the sequence number its claim's submission was given (an earlier answer).
  '/v1/transaction/claims/{id}/reversals': async (rt, body) => {
    const { claimId, sequence } = await submittedClaim(rt);
    await rt.call('POST', '/v1/simulator/clock/advance', { working_days: 1 });
    if (body.data?.attributes && typeof body.data.attributes === 'object')
      body.data.attributes.original_instruction_id = await sequence();
    return { path: `/v1/transaction/claims/${claimId}/reversals`, body };
  },
  '/v1/transaction/claims/{id}/reversals/{rid}/submissions': async (rt, body) => {
    const { claimId, sequence } = await submittedClaim(rt);
    await rt.call('POST', '/v1/simulator/clock/advance', { working_days: 1 });
    const reversal = {
      data: {
        id: crypto.randomUUID(),
        organisation_id: NORTHWIND.organisation_id,
        type: 'claim_reversals',
        attributes: { original_instruction_id: await sequence() },
      },
    };
    await created(rt, `/v1/transaction/claims/${claimId}/reversals`, reversal);
    return { path: `/v1/transaction/claims/${claimId}/reversals/${reversal.data.id}/submissions`, body };
  },
};

/** The caller's organisation wherever a body names one. */
function asCaller(body: unknown): Json {
  const b = body as Json;
  if (b && typeof b === 'object') {
    if ('organisation_id' in b) b.organisation_id = NORTHWIND.organisation_id;
    if (b.data && typeof b.data === 'object' && 'organisation_id' in b.data)
      b.data.organisation_id = NORTHWIND.organisation_id;
  }
  return b;
}

const doc: Json = await (async () => {
  const rt = await testRuntime();
  try {
    return (await (await rt.app.request('/v1/openapi.json')).json()) as Json;
  } finally {
    await rt.close();
  }
})();

const creates = Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, ops]) =>
  ops.post?.requestBody ? [{ path, op: ops.post }] : [],
);

// The document's own validator, apart from the double's: OpenAPI 3.1's dialect (JSON Schema
// 2020-12) over the published components. A body it refuses is the generator's mistake, not sent.
const documentAjv = new Ajv2020({ allErrors: true, strict: false });
addFormats(documentAjv);
documentAjv.addSchema({ $id: 'openapi', components: doc.components });

describe('bodies generated from /v1/openapi.json by json-schema-faker', () => {
  it('covers every operation that takes a body by POST', () => {
    expect(creates.length).toBeGreaterThanOrEqual(15);
  });

  it.each(creates.map((c) => [c.path, c] as const))(
    'POST %s: accepted, or refused by a rule its description names',
    async (_path, { path, op }) => {
      const ref = op.requestBody.content['application/json'].schema.$ref as string;
      const valid = documentAjv.getSchema(`openapi${ref}`)!;
      const answers = documentedAnswers(op.description);
      // Generated deep enough for every nested object (the default of 5 levels leaves claims' parties empty).
      const generator = createGenerator({ seed: SEED, maxDepth: 12 });
      const rt = await testRuntime();
      const refused: string[] = [];
      let sent = 0;
      try {
        for (let made = 0; sent < BODIES && made < BODIES * 10; made++) {
          const generated = asCaller(await generator.generate({ $ref: ref, components: doc.components }));
          if (!valid(generated)) continue;
          const target = await (TARGETS[path] ?? (async (_rt, body) => ({ path, body })))(rt, generated);
          sent++;
          const res = await rt.call('POST', target.path, target.body);
          if (res.status < 300) continue;
          const message = errorMessageOf(await res.text());
          if (!isDocumented(res.status, message, answers))
            refused.push(`${res.status} ${JSON.stringify(message)} for ${JSON.stringify(target.body)}`);
        }
      } finally {
        await rt.close();
      }
      expect(refused).toEqual([]);
      // The generator's mistakes (bodies the document's schema refuses: json-schema-faker does not
      // always keep if/then, not and dependentRequired) are made again, not sent.
      expect(sent).toBe(BODIES);
    },
    120_000,
  );
});

describe('reading a description', () => {
  const answers = documentedAnswers(
    '- The bank id must be registered: 400 `bank_id in body <bank_id> is not registered (registered: <list>)`, 409 `duplicate`',
  );

  it('takes each documented line, with what varies in it', () => {
    expect(
      isDocumented(400, 'validation failure list:\nbank_id in body 1 is not registered (registered: a, b)', answers),
    ).toBe(true);
    expect(isDocumented(409, 'duplicate', answers)).toBe(true);
  });

  it('refuses a line it does not name, or a documented line under another status', () => {
    expect(
      isDocumented(400, 'bank_id in body 1 is not registered (registered: a)\nname in body is required', answers),
    ).toBe(false);
    expect(isDocumented(400, 'duplicate', answers)).toBe(false);
    expect(isDocumented(500, 'duplicate', answers)).toBe(false);
  });
});
