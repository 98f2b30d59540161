// The node coordinator against a real PostgreSQL: what a round of renewals does to a lease taken
// while the round was out.
import { afterEach, describe, expect, it } from 'vitest';
import { postgresForTests } from '../../test/support/postgres-for-tests.ts';
import { NodeCoordinator } from './node-coordinator.ts';

const postgres = postgresForTests();

describe.skipIf(!postgres.available)('a node coordinator', () => {
  const coordinators: NodeCoordinator[] = [];
  afterEach(async () => {
    for (const c of coordinators.splice(0)) await c.close();
  });

  const coordinator = async (nodeId: string, lost: string[]) => {
    const c = new NodeCoordinator({
      url: await postgres.server.createDatabase(),
      nodeId,
      advertiseUrl: 'http://127.0.0.1:9',
      open: async () => true,
      close: async (world) => {
        lost.push(world);
      },
      log: () => undefined,
    });
    coordinators.push(c);
    return c;
  };

  it('keeps a sandbox claimed while a round was renewing the leases it held before', async () => {
    const lost: string[] = [];
    const c = await coordinator('n1', lost);
    await c.start();
    for (let i = 0; i < 20; i++) {
      // The claim's statements go out first; the round's renewal goes out between them, asking
      // only for the worlds held before the claim landed.
      const claim = c.claimNew(`sbx_${i}`, 100);
      const round = c.tick();
      expect(await claim).toBe('claimed');
      await round;
      expect(c.serves(`sbx_${i}`), `sbx_${i} after its round`).toBe(true);
    }
    expect(lost).toEqual([]);
  });
});
