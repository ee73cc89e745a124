import { Client } from 'pg';
import { TransactionHost } from '../../../apps/api/src/database/transaction-host';
import { RmmEventMap, RmmEvents } from '../../../apps/api/src/rmm/common/bus/rmm-events';
import { createMediumContext, MediumContext } from '../medium.harness';

/**
 * An event is announced once what it tells of is there to be read (rmm/common/bus/rmm-events.ts): RmmEvents.emit
 * inside tx.run waits for the commit and is dropped on a rollback; outside one it goes at once. Each listener here
 * reads the table on a connection of its own when it hears the event, as another instance's subscriber would.
 */
describe('RmmEvents.emit inside a transaction, on PostgreSQL', () => {
  let ctx: MediumContext;
  let tx: TransactionHost;
  let events: RmmEvents;
  let reader: Client;
  const heard: Array<{ agentId: number; rowsSeen: number }> = [];
  let pending: Promise<void>[] = [];

  beforeAll(async () => {
    ctx = await createMediumContext();
    tx = ctx.get(TransactionHost);
    events = ctx.module.get<RmmEvents>(RmmEvents, { strict: false });
    await tx.exec(`CREATE TABLE commit_probe (id int PRIMARY KEY)`);
    reader = new Client({ connectionString: ctx.db.url });
    await reader.connect();
    events.on('agent.updated', ({ agentId }: RmmEventMap['agent.updated']) => {
      // what a subscriber reading the database sees when the event reaches it
      pending.push(
        reader.query<{ n: number }>(`SELECT count(*)::int AS n FROM commit_probe WHERE id = $1`, [agentId]).then((r) => {
          heard.push({ agentId, rowsSeen: r.rows[0].n });
        }),
      );
    });
  });
  afterAll(async () => {
    await reader?.end();
    await ctx?.close();
  });
  beforeEach(() => {
    heard.length = 0;
    pending = [];
  });
  const settled = async (): Promise<void> => {
    await new Promise((r) => setImmediate(r));
    await Promise.all(pending);
  };

  it('goes at once outside a transaction', async () => {
    events.emit('agent.updated', { agentId: 1 });
    await settled();
    expect(heard).toEqual([{ agentId: 1, rowsSeen: 0 }]);
  });

  it('waits for the commit inside tx.run: nobody hears it before the row it tells of can be read', async () => {
    let heardInside = -1;
    await tx.run(async () => {
      await tx.exec(`INSERT INTO commit_probe (id) VALUES (2)`);
      events.emit('agent.updated', { agentId: 2 });
      await settled();
      heardInside = heard.length;
    });
    expect(heardInside).toBe(0);
    await settled();
    expect(heard).toEqual([{ agentId: 2, rowsSeen: 1 }]);
  });

  it('is dropped when the transaction rolls back, and what committed elsewhere is still announced', async () => {
    await expect(
      tx.run(async () => {
        await tx.exec(`INSERT INTO commit_probe (id) VALUES (3)`);
        events.emit('agent.updated', { agentId: 3 });
        throw new Error('the change is refused');
      }),
    ).rejects.toThrow('the change is refused');
    await settled();
    await new Promise((r) => setTimeout(r, 50));
    await settled();
    expect(heard).toEqual([]);
    expect((await reader.query(`SELECT count(*)::int AS n FROM commit_probe WHERE id = 3`)).rows[0].n).toBe(0);
    events.emit('agent.updated', { agentId: 4 });
    await settled();
    expect(heard).toEqual([{ agentId: 4, rowsSeen: 0 }]);
  });

  it('in a nested tx.run (a service called by another inside its transaction), waits for the outer commit', async () => {
    const order: string[] = [];
    const nested = async (): Promise<void> =>
      tx.run(async () => {
        await tx.exec(`INSERT INTO commit_probe (id) VALUES (5)`);
        events.emit('agent.updated', { agentId: 5 });
      });
    await tx.run(async () => {
      await nested();
      await settled();
      order.push(`after the inner run: ${heard.length} heard`);
      await tx.exec(`INSERT INTO commit_probe (id) VALUES (6)`);
      events.emit('agent.updated', { agentId: 6 });
    });
    await settled();
    expect(order).toEqual(['after the inner run: 0 heard']);
    // in the order emitted, each reading its committed row
    expect(heard).toEqual([
      { agentId: 5, rowsSeen: 1 },
      { agentId: 6, rowsSeen: 1 },
    ]);
  });
});
