import { TransactionHost } from '../../../apps/api/src/database/transaction-host';
import { sql } from '../../utils/sql';
import { until } from '../../utils/wait';
import { createMediumContext, MediumContext } from '../medium.harness';

/**
 * TransactionHost's raw SQL has one shape per method, whatever the verb: rows() the rows (node-postgres's, and
 * TypeORM's query runner's inside a transaction, which otherwise answers `[rows, count]` for UPDATE and DELETE);
 * exec() the count of rows touched. Each case runs on the pool and inside tx.run, on this file's database.
 */
describe('TransactionHost.rows and exec on PostgreSQL', () => {
  let ctx: MediumContext;
  let tx: TransactionHost;

  beforeAll(async () => {
    ctx = await createMediumContext();
    tx = ctx.get(TransactionHost);
    await tx.exec(`CREATE TABLE tx_shapes (id int PRIMARY KEY, name text NOT NULL)`);
  });
  afterAll(async () => {
    await ctx?.close();
  });
  beforeEach(async () => {
    await tx.exec(`TRUNCATE tx_shapes`);
    await tx.exec(`INSERT INTO tx_shapes (id, name) VALUES (1, 'one'), (2, 'two'), (3, 'three')`);
  });

  const where = {
    'on the pool': <T>(work: () => Promise<T>) => work(),
    'in a transaction': <T>(work: () => Promise<T>) => tx.run(work),
  };

  describe.each(Object.entries(where))('%s', (_name, within) => {
    it('rows: SELECT answers its rows, and [] when none match', async () => {
      await within(async () => {
        expect(await tx.rows<{ id: number; name: string }>(`SELECT id, name FROM tx_shapes WHERE id <= $1 ORDER BY id`, [2])).toEqual([
          { id: 1, name: 'one' },
          { id: 2, name: 'two' },
        ]);
        expect(await tx.rows(`SELECT id FROM tx_shapes WHERE id > $1`, [10])).toEqual([]);
      });
    });

    it('rows: INSERT … RETURNING answers the inserted rows, and [] when ON CONFLICT DO NOTHING inserted none', async () => {
      await within(async () => {
        expect(await tx.rows(`INSERT INTO tx_shapes (id, name) VALUES (4, 'four'), (5, 'five') RETURNING id`)).toEqual([{ id: 4 }, { id: 5 }]);
        expect(await tx.rows(`INSERT INTO tx_shapes (id, name) VALUES (1, 'again') ON CONFLICT DO NOTHING RETURNING id`)).toEqual([]);
      });
    });

    it('rows: UPDATE … RETURNING answers the changed rows (not [rows, count]), and [] when none changed', async () => {
      await within(async () => {
        expect(await tx.rows(`UPDATE tx_shapes SET name = upper(name) WHERE id >= $1 RETURNING id, name`, [2])).toEqual([
          { id: 2, name: 'TWO' },
          { id: 3, name: 'THREE' },
        ]);
        expect(await tx.rows(`UPDATE tx_shapes SET name = 'x' WHERE id = $1 RETURNING id`, [99])).toEqual([]);
      });
    });

    it('rows: DELETE … RETURNING answers the deleted rows (not [rows, count])', async () => {
      await within(async () => {
        expect(await tx.rows(`DELETE FROM tx_shapes WHERE id = $1 RETURNING id, name`, [3])).toEqual([{ id: 3, name: 'three' }]);
      });
      expect(await tx.rows(`SELECT id FROM tx_shapes ORDER BY id`)).toEqual([{ id: 1 }, { id: 2 }]);
    });

    it('rows: DELETE without RETURNING answers []', async () => {
      await within(async () => {
        expect(await tx.rows(`DELETE FROM tx_shapes WHERE id = $1`, [1])).toEqual([]);
      });
      expect(await tx.rows(`SELECT id FROM tx_shapes ORDER BY id`)).toEqual([{ id: 2 }, { id: 3 }]);
    });

    it('exec: the rows touched by INSERT, UPDATE and DELETE (with or without RETURNING), 0 when none', async () => {
      await within(async () => {
        expect(await tx.exec(`INSERT INTO tx_shapes (id, name) VALUES (4, 'four'), (5, 'five')`)).toEqual({ rowCount: 2 });
        expect(await tx.exec(`UPDATE tx_shapes SET name = 'x' WHERE id > $1`, [2])).toEqual({ rowCount: 3 });
        expect(await tx.exec(`UPDATE tx_shapes SET name = 'y' WHERE id = $1 RETURNING id`, [4])).toEqual({ rowCount: 1 });
        expect(await tx.exec(`DELETE FROM tx_shapes WHERE id = $1 RETURNING id`, [5])).toEqual({ rowCount: 1 });
        expect(await tx.exec(`DELETE FROM tx_shapes WHERE id >= $1`, [3])).toEqual({ rowCount: 2 });
        expect(await tx.exec(`DELETE FROM tx_shapes WHERE id = $1`, [99])).toEqual({ rowCount: 0 });
      });
      expect(await tx.rows(`SELECT id, name FROM tx_shapes ORDER BY id`)).toEqual([
        { id: 1, name: 'one' },
        { id: 2, name: 'two' },
      ]);
    });

    it('exec: a SELECT counts its rows; a statement that reports none (SET LOCAL, a lock) counts 0', async () => {
      await within(async () => {
        expect(await tx.exec(`SELECT id FROM tx_shapes`)).toEqual({ rowCount: 3 });
        expect(await tx.exec(`SELECT pg_advisory_xact_lock($1)`, [42])).toEqual({ rowCount: 1 });
        expect(await tx.exec(`SET LOCAL statement_timeout = '5s'`)).toEqual({ rowCount: 0 });
      });
    });
  });

  it('rows and exec inside tx.run share its transaction: rolled back together when the work throws', async () => {
    await expect(
      tx.run(async () => {
        await tx.exec(`DELETE FROM tx_shapes WHERE id = $1`, [1]);
        expect(await tx.rows(`INSERT INTO tx_shapes (id, name) VALUES (9, 'nine') RETURNING id`)).toEqual([{ id: 9 }]);
        expect(await tx.rows(`SELECT id FROM tx_shapes ORDER BY id`)).toEqual([{ id: 2 }, { id: 3 }, { id: 9 }]);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await tx.rows(`SELECT id FROM tx_shapes ORDER BY id`)).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it('afterCommit: after the commit, in order, with the change visible to another connection; never after a rollback; at once outside a transaction', async () => {
    const heard: string[] = [];
    const seenFromOutside: number[][] = [];
    // (another connection: what a listener of the announcement would read)
    const outside = async (): Promise<number[]> => (await sql<{ id: number }>(ctx.db.url, `SELECT id FROM tx_shapes WHERE id = 7`)).map((r) => r.id);
    await tx.run(async () => {
      await tx.exec(`INSERT INTO tx_shapes (id, name) VALUES (7, 'seven')`);
      tx.afterCommit(() => heard.push('first'));
      // a nested run joins: its hook waits for the outer commit too
      await tx.run(async () => tx.afterCommit(() => heard.push('nested')));
      tx.afterCommit(() => void outside().then((ids) => seenFromOutside.push(ids)));
      expect(heard).toEqual([]);
    });
    expect(heard).toEqual(['first', 'nested']);
    await until('the read from outside', async () => seenFromOutside.length === 1);
    expect(seenFromOutside).toEqual([[7]]);

    await expect(
      tx.run(async () => {
        tx.afterCommit(() => heard.push('rolled back'));
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    tx.afterCommit(() => heard.push('no transaction'));
    expect(heard).toEqual(['first', 'nested', 'no transaction']);
  });
});
