import { generateKeyPairSync } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { storedData } from '../../../test/support/stored-data.ts';
import { FIXTURES_DIR } from '../../fixtures.ts';
import { PARTICIPANT_TEST_KEYS } from '../../harness/cop-keys.ts';
import { createRuntime, type Runtime } from '../../runtime.ts';
import { SIGNING_KEYS_META } from './participant-signing-keys.ts';

const NW = '0015800001041REAAY';
const HB = '0015800000jf9GgAAI';
let dir: string;
const open: Runtime[] = [];
afterEach(async () => {
  for (const rt of open.splice(0)) await rt.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function startWith(options: Parameters<typeof createRuntime>[0]): Promise<Runtime> {
  const rt = await createRuntime({ scheduledReports: false, seedAccounts: false, ...options });
  open.push(rt);
  return rt;
}
const start = startWith;
async function stop(rt: Runtime): Promise<void> {
  open.splice(open.indexOf(rt), 1);
  await rt.close();
}
const kids = async (rt: Runtime) => {
  await rt.sim.signingKeys.ready();
  return rt.sim.participants.all().map((p) => rt.sim.signingKeys.get(p.open_banking_id)!.publicJwk);
};
const pem = (type: 'rsa' | 'ec', bits = 2048, format: 'pkcs8' | 'pkcs1' = 'pkcs8') =>
  generateKeyPairSync(
    type as 'rsa',
    {
      modulusLength: bits,
      ...(type === 'ec' ? { namedCurve: 'P-256' } : {}),
      privateKeyEncoding: { type: format, format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    } as never,
  ).privateKey as unknown as string;

describe('participant signing keys', () => {
  it("are the bundled fixtures' own: nothing generated, the same kids on every start", async () => {
    const rt = await start({ memory: true });
    expect((await kids(rt)).map((k) => k.kid)).toEqual([
      'northwind-sim-cop-signing',
      'harbour-sim-cop-signing',
      'fenwick-sim-cop-signing',
    ]);
    expect(rt.sim.store.getMeta(SIGNING_KEYS_META)).toBeUndefined();
  });

  it('are generated on the first start (RSA 2048) for fixtures without them, kept in the data file, and the same after a restart and a reset', async () => {
    dir = mkdtempSync(join(tmpdir(), 'scheme-sim-keys-'));
    const fixturesDir = join(dir, 'fixtures');
    cpSync(FIXTURES_DIR, fixturesDir, { recursive: true });
    const unkeyed = JSON.parse(readFileSync(join(fixturesDir, 'participants.json'), 'utf8')) as Array<
      Record<string, unknown>
    >;
    for (const p of unkeyed) delete p.signing_key;
    writeFileSync(join(fixturesDir, 'participants.json'), JSON.stringify(unkeyed));
    const file = join(dir, 'sim.json');
    const start = (options: Parameters<typeof createRuntime>[0]) => startWith({ fixturesDir, ...options });
    const first = await start({ data: file });
    const published = await kids(first);
    expect(published).toHaveLength(3);
    expect(new Set(published.map((k) => k.kid)).size).toBe(3);
    for (const k of published) {
      expect(k).toMatchObject({ kty: 'RSA', alg: 'PS256', use: 'sig' });
      expect(Buffer.from(k.n!, 'base64url').length * 8).toBe(2048);
    }
    await stop(first);
    const stored = (await storedData(file)).meta[SIGNING_KEYS_META] as Record<string, { private_key: string }>;
    expect(Object.keys(stored).sort()).toEqual([NW, HB, '00158000016i44IAAQ'].sort());
    expect(stored[NW]!.private_key).toMatch(/^-----BEGIN PRIVATE KEY-----/);

    const again = await start({ data: file });
    expect(await kids(again)).toEqual(published);
    await again.sim.reset();
    await again.sim.store.commit();
    await stop(again);
    const afterReset = await start({ data: file });
    expect(await kids(afterReset)).toEqual(published);
  });

  it('takes a key given in fixtures/participants.json, its kid or else its JWK thumbprint', async () => {
    dir = mkdtempSync(join(tmpdir(), 'scheme-sim-keys-'));
    cpSync(FIXTURES_DIR, dir, { recursive: true });
    const participants = JSON.parse(readFileSync(join(dir, 'participants.json'), 'utf8')) as Array<
      Record<string, unknown> & { open_banking_id: string }
    >;
    for (const p of participants) p.signing_key = { ...PARTICIPANT_TEST_KEYS[p.open_banking_id] };
    writeFileSync(join(dir, 'participants.json'), JSON.stringify(participants));
    const rt = await start({ memory: true, fixturesDir: dir });
    await rt.sim.signingKeys.ready();
    expect(rt.sim.signingKeys.get(HB)?.kid).toBe('harbour-test-signing-key');
    // RFC 7638 thumbprints are 43 base64url characters (SHA-256).
    expect(rt.sim.signingKeys.get(NW)?.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rt.sim.store.getMeta(SIGNING_KEYS_META)).toBeUndefined(); // nothing generated, nothing stored
  });

  it.each([
    ['not a PEM', { private_key: 'nonsense' }, /signing_key\.private_key is not a readable PEM private key/],
    [
      'an RSA key under 2048 bits',
      { private_key: pem('rsa', 1024) },
      /RSA key of at least 2048 bits for PS256 \(got rsa 1024\)/,
    ],
    ['an EC key', { private_key: pem('ec') }, /RSA key of at least 2048 bits for PS256 \(got ec\)/],
    ['PKCS#1 PEM', { private_key: pem('rsa', 2048, 'pkcs1') }, /must be PKCS#8 PEM/],
    [
      'an empty kid',
      { kid: '', private_key: PARTICIPANT_TEST_KEYS[NW]!.private_key },
      /signing_key\.kid must be a non-empty string/,
    ],
  ])('refuses %s at start, naming the participant', async (_what, key, message) => {
    await expect(
      createRuntime({ memory: true, scheduledReports: false, participantSigningKeys: { [NW]: key } }),
    ).rejects.toThrow(new RegExp(`participant ${NW}: .*${message.source}`));
  });
});
