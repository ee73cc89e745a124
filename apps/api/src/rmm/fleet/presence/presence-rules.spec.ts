import { HeartbeatBuffer, isTransition, newConnection, StatusOp, StatusQueue, superseded } from './presence-rules';

const at = (s: number): Date => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
const written = (agentId: number, epoch: number) => Object.assign(newConnection(agentId), { epoch });

describe('presence rules: the epoch', () => {
  it('a connection is superseded by a later epoch only, never by its own or an older one', () => {
    const held = written(1, 5);
    expect(superseded(held, 6)).toBe(true);
    expect(superseded(held, 5)).toBe(false);
    expect(superseded(held, 4)).toBe(false);
  });

  it('a connection whose connect is not written yet is never told it is superseded (its epoch will be the newest)', () => {
    expect(superseded(newConnection(1), 99)).toBe(false);
  });

  it('a transition is a change of status: online → online (a move to another instance) is none', () => {
    expect(isTransition('offline', 'online')).toBe(true);
    expect(isTransition('overdue', 'online')).toBe(true);
    expect(isTransition('online', 'online')).toBe(false);
  });
});

describe('presence rules: HeartbeatBuffer (heartbeats written behind, one per agent per flush)', () => {
  it('keeps the latest heartbeat of each agent and writes it with its connection\'s epoch', () => {
    const beats = new HeartbeatBuffer();
    const c = written(1, 3);
    beats.record(c, at(1));
    beats.record(c, at(3));
    beats.record(c, at(2)); // (out of order: the later time stays)
    beats.record(written(2, 7), at(1));
    expect(beats.take()).toEqual([
      { agentId: 1, epoch: 3, at: at(3) },
      { agentId: 2, epoch: 7, at: at(1) },
    ]);
    expect(beats.take()).toEqual([]); // taken: the next flush writes nothing
  });

  it('a newer connection\'s heartbeat wins over an older connection\'s of the same agent, whichever came last', () => {
    const beats = new HeartbeatBuffer();
    const old = written(1, 3);
    const fresh = written(1, 4);
    beats.record(fresh, at(1));
    beats.record(old, at(9)); // a stale connection still talking: ignored
    expect(beats.take()).toEqual([{ agentId: 1, epoch: 4, at: at(1) }]);
  });

  it('a heartbeat of a connection whose connect is not written waits for the flush after it is', () => {
    const beats = new HeartbeatBuffer();
    const c = newConnection(1);
    beats.record(c, at(1));
    expect(beats.take()).toEqual([]);
    c.epoch = 8;
    expect(beats.take()).toEqual([{ agentId: 1, epoch: 8, at: at(1) }]);
  });

  it('a close takes its own connection\'s waiting heartbeat (its last_seen), never another connection\'s', () => {
    const beats = new HeartbeatBuffer();
    const old = written(1, 3);
    const fresh = written(1, 4);
    beats.record(fresh, at(5));
    expect(beats.takeFor(old)).toBeNull();
    expect(beats.takeFor(fresh)).toEqual(at(5));
    expect(beats.size).toBe(0);
  });
});

describe('presence rules: StatusQueue (connects and closes written in batches)', () => {
  const op = (kind: StatusOp['kind'], conn = newConnection(1)): StatusOp => ({ kind, conn, at: null });

  it('takes at most one write per agent per batch, oldest first, and keeps the rest in order', () => {
    const q = new StatusQueue();
    const a1 = newConnection(1);
    const a2 = newConnection(1);
    const b = newConnection(2);
    const ops = [op('connect', a1), op('connect', b), op('connect', a2), op('disconnect', a1), op('disconnect', b)];
    for (const o of ops) q.push(o);
    expect(q.next(100)).toEqual([ops[0], ops[1]]);
    expect(q.next(100)).toEqual([ops[2], ops[4]]);
    expect(q.next(100)).toEqual([ops[3]]); // a1's close after a2's connect: a stale epoch by then, it changes nothing
    expect(q.size).toBe(0);
  });

  it('a batch holds at most `max` writes', () => {
    const q = new StatusQueue();
    for (let id = 1; id <= 5; id++) q.push(op('connect', newConnection(id)));
    expect(q.next(2).map((o) => o.conn.agentId)).toEqual([1, 2]);
    expect(q.next(2).map((o) => o.conn.agentId)).toEqual([3, 4]);
    expect(q.next(2).map((o) => o.conn.agentId)).toEqual([5]);
  });
});
