import { randomUUID } from 'node:crypto';
import { TerminalSessionEntity } from '@app/entities';
import { NewTerminalSession, TerminalRepository } from '../../../apps/api/src/rmm/remote/terminal/terminal.repository';
import { MediumFactory } from '../medium.factory';
import { createMediumContext, MEDIUM_START, MediumContext } from '../medium.harness';

/** The terminal sessions' limits and ticket on PostgreSQL (issue 32, docs/terminal.md "Limits"). */
describe('TerminalRepository on PostgreSQL', () => {
  let ctx: MediumContext;
  let f: MediumFactory;
  let repo: TerminalRepository;
  const limits = { perAgent: 3, perCaller: 10 };
  const session = (agentId: number, caller: string, at = MEDIUM_START): NewTerminalSession => ({
    id: randomUUID(),
    agentId,
    openedBy: caller,
    caller,
    cols: 80,
    rows: 24,
    shell: null,
    createdAt: at,
    ticketExpiresAt: new Date(at.getTime() + 60_000),
  });

  const lease = (from: Date): Date => new Date(from.getTime() + 30_000);
  const at = (seconds: number): Date => new Date(MEDIUM_START.getTime() + seconds * 1000);

  beforeAll(async () => {
    ctx = await createMediumContext();
    f = new MediumFactory(ctx);
    repo = ctx.get(TerminalRepository);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('lets exactly 3 of 8 opens at once on one agent through, whoever the callers', async () => {
    const agent = await f.newAgent();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => repo.insertWithinLimits(session(agent.id, `api_key:${100 + i}`), limits)));
    expect(results.filter((r) => r instanceof TerminalSessionEntity)).toHaveLength(3);
    expect(results.filter((r) => r === 'agent')).toHaveLength(5);
    expect(await ctx.repo(TerminalSessionEntity).countBy({ agentId: agent.id })).toBe(3);
  });

  it('holds a caller to 10 sessions across agents; an expired unused ticket stops counting and is marked expired', async () => {
    const agents = await Promise.all([0, 1, 2, 3].map(() => f.newAgent()));
    const caller = 'operator:77';
    const made = [];
    for (let i = 0; i < 10; i++) made.push(await repo.insertWithinLimits(session(agents[i % 4].id, caller), limits));
    expect(made.every((r) => r instanceof TerminalSessionEntity)).toBe(true);
    expect(await repo.insertWithinLimits(session(agents[3].id, caller), limits)).toBe('caller');
    // a minute later the ten unused tickets have expired: they count no more
    const later = new Date(MEDIUM_START.getTime() + 61_000);
    expect(await repo.insertWithinLimits(session(agents[3].id, caller, later), limits)).toBeInstanceOf(TerminalSessionEntity);
    const expired = await repo.expireTickets(later);
    expect(expired).toEqual(expect.arrayContaining((made as TerminalSessionEntity[]).map((s) => s.id))); // (and the tickets of the test before)
    expect(await ctx.repo(TerminalSessionEntity).findOneBy({ id: expired[0] })).toMatchObject({ endReason: 'expired', closedAt: later });
  });

  it('gives the ticket once, to its caller, before it expires', async () => {
    const agent = await f.newAgent();
    const s = session(agent.id, 'api_key:5');
    await repo.insertWithinLimits(s, limits);
    const soon = new Date(MEDIUM_START.getTime() + 1_000);
    expect(await repo.accept(s.id, 'api_key:6', soon, lease(soon))).toBe('unknown');
    const [a, b] = await Promise.all([repo.accept(s.id, 'api_key:5', soon, lease(soon)), repo.accept(s.id, 'api_key:5', soon, lease(soon))]);
    expect([a, b].filter((x) => x instanceof TerminalSessionEntity)).toHaveLength(1);
    expect([a, b]).toContain('used');
    const late = session(agent.id, 'api_key:5');
    await repo.insertWithinLimits(late, limits);
    expect(await repo.accept(late.id, 'api_key:5', new Date(MEDIUM_START.getTime() + 60_000), lease(soon))).toBe('expired');
    expect(await repo.accept(randomUUID(), 'api_key:5', soon, lease(soon))).toBe('unknown');
  });

  it('an accepted session counts while its instance renews the lease; once it runs out it counts no more and is closed', async () => {
    const agent = await f.newAgent();
    const held = [session(agent.id, 'api_key:8'), session(agent.id, 'api_key:8'), session(agent.id, 'api_key:8')];
    for (const s of held) {
      await repo.insertWithinLimits(s, limits);
      expect(await repo.accept(s.id, 'api_key:8', at(1), lease(at(1)))).toBeInstanceOf(TerminalSessionEntity);
    }
    // 50 s on: the first two renewed at 25 s, the third not (its instance is gone)
    await repo.hold([held[0].id, held[1].id], lease(at(25)));
    expect(await repo.insertWithinLimits(session(agent.id, 'api_key:9', at(50)), limits)).toBeInstanceOf(TerminalSessionEntity);
    expect(await repo.insertWithinLimits(session(agent.id, 'api_key:9', at(50)), limits)).toBe('agent');
    expect(await repo.closeAbandoned(at(50))).toContain(held[2].id);
    expect(await ctx.repo(TerminalSessionEntity).findOneBy({ id: held[2].id })).toMatchObject({ endReason: 'closed', closedAt: at(50) });
    expect(await ctx.repo(TerminalSessionEntity).findOneBy({ id: held[0].id })).toMatchObject({ endReason: null, closedAt: null });
  });
});
