import { AgentEntity, CheckEntity, TaskEntity } from '@app/entities';
import { AgentsService } from '../../../apps/api/src/rmm/fleet/agents/agents.service';
import { ChecksService } from '../../../apps/api/src/rmm/automation/checks/checks.service';
import { TasksService } from '../../../apps/api/src/rmm/automation/tasks/tasks.service';
import { MediumFactory } from '../medium.factory';
import { createMediumContext, MediumContext, MEDIUM_START } from '../medium.harness';
import { EVERY_CLIENT } from '../../../apps/api/src/rmm/common/client-scope';

describe('ChecksService on PostgreSQL', () => {
  let ctx: MediumContext;
  let f: MediumFactory;
  let checks: ChecksService;

  beforeAll(async () => {
    ctx = await createMediumContext();
    f = new MediumFactory(ctx);
    checks = ctx.get(ChecksService);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('stores a check as pending, named after its settings, alerting after one failure by default', async () => {
    const agent = await f.newAgent();
    const c = await checks.create({ agent: String(agent.id), check_type: 'diskspace', settings: { drive: 'C:', threshold_percent: 10 } }, EVERY_CLIENT);
    expect(await ctx.repo(CheckEntity).findOneByOrFail({ id: c.id })).toMatchObject({
      agentId: agent.id,
      checkType: 'diskspace',
      name: 'Disk space C: below 10% free',
      status: 'pending',
      settings: { drive: 'C:', threshold_percent: 10 },
      scriptId: null,
      failsB4Alert: 1,
      failCount: 0,
    });
  });

  it('refuses a check for an agent that does not exist, and stores nothing', async () => {
    const before = await ctx.repo(CheckEntity).count();
    await expect(checks.create({ agent: '999999', check_type: 'ping', settings: { target: 'gw' } }, EVERY_CLIENT)).rejects.toMatchObject({
      message: 'validation error',
      fields: [{ field: 'agent', message: 'no agent 999999' }],
    });
    expect(await ctx.repo(CheckEntity).count()).toBe(before);
  });

  it('keeps a script check\'s script as a real reference (script_id), refusing one that does not exist', async () => {
    const agent = await f.newAgent();
    const script = await f.newScript();
    await expect(checks.create({ agent: String(agent.id), check_type: 'script', settings: { script: 424242 } }, EVERY_CLIENT, true)).rejects.toMatchObject({
      fields: [{ field: 'settings.script', message: 'no script 424242' }],
    });
    const c = await checks.create({ agent: String(agent.id), check_type: 'script', settings: { script: script.id, args: ['--quick'], timeout: 30 } }, EVERY_CLIENT, true);
    const row = await ctx.repo(CheckEntity).findOneByOrFail({ id: c.id });
    expect(row).toMatchObject({ scriptId: script.id, settings: { args: ['--quick'], timeout: 30 }, name: `Script ${script.id}` });
    expect(row.settings).not.toHaveProperty('script');
  });

  it('checks new settings against the type the check already has', async () => {
    const c = await f.newCheck({ checkType: 'memory', settings: { threshold_percent: 80 } });
    await expect(checks.update(c.id, { settings: { target: 'x' } }, EVERY_CLIENT)).rejects.toMatchObject({
      message: 'validation error',
      fields: expect.arrayContaining([expect.objectContaining({ field: 'settings.target' }), { field: 'settings.threshold_percent', message: 'is required' }]),
    });
    expect((await checks.get(c.id, EVERY_CLIENT)).settings).toEqual({ threshold_percent: 80 });
    await expect(checks.update(c.id, { name: ' RAM ', settings: { threshold_percent: 95 }, fails_b4_alert: 3 }, EVERY_CLIENT)).resolves.toMatchObject({
      name: 'RAM',
      settings: { threshold_percent: 95 },
      failsB4Alert: 3,
    });
  });

  it("deleting an agent's record deletes its checks and tasks too, but not the script", async () => {
    const agent = await f.newAgent();
    const check = await f.newCheck({ agentId: agent.id });
    const task = await f.newTask({ agentId: agent.id });
    await ctx.get(AgentsService).delete(agent.id, EVERY_CLIENT);
    expect(await ctx.repo(AgentEntity).existsBy({ id: agent.id })).toBe(false);
    expect(await ctx.repo(CheckEntity).existsBy({ id: check.id })).toBe(false);
    expect(await ctx.repo(TaskEntity).existsBy({ id: task.id })).toBe(false);
    await expect(f.newTask({ scriptId: task.scriptId })).resolves.toMatchObject({ scriptId: task.scriptId });
  });
});

describe('TasksService on PostgreSQL', () => {
  let ctx: MediumContext;
  let f: MediumFactory;
  let tasks: TasksService;

  beforeAll(async () => {
    ctx = await createMediumContext();
    f = new MediumFactory(ctx);
    tasks = ctx.get(TasksService);
  });
  beforeEach(() => ctx.clock.set(MEDIUM_START));
  afterAll(async () => {
    await ctx?.close();
  });

  it('computes next_run_at from the cron schedule in UTC, after the clock', async () => {
    ctx.clock.set(new Date('2026-01-01T00:01:00Z'));
    const t = await f.newTask({ schedule: ' */5 * * * * ' });
    expect(await ctx.repo(TaskEntity).findOneByOrFail({ id: t.id })).toMatchObject({
      schedule: '*/5 * * * *',
      enabled: true,
      nextRunAt: new Date('2026-01-01T00:05:00Z'),
      lastRunAt: null,
    });
  });

  it('keeps next_run_at null while disabled, and recomputes it from the clock when enabled or rescheduled', async () => {
    const t = await f.newTask({ schedule: '0 3 * * *', enabled: false });
    expect(t.nextRunAt).toBeNull();
    ctx.clock.set(new Date('2026-01-01T04:00:00Z'));
    expect((await tasks.update(t.id, { enabled: true }, EVERY_CLIENT)).nextRunAt).toEqual(new Date('2026-01-02T03:00:00Z'));
    expect((await tasks.update(t.id, { schedule: '30 6 * * 1' }, EVERY_CLIENT)).nextRunAt).toEqual(new Date('2026-01-05T06:30:00Z'));
    expect((await tasks.update(t.id, { enabled: false }, EVERY_CLIENT)).nextRunAt).toBeNull();
    expect((await tasks.update(t.id, { name: 'renamed' }, EVERY_CLIENT)).nextRunAt).toBeNull();
  });

  it('refuses an unknown agent and an unknown script at once, and stores nothing', async () => {
    const before = await ctx.repo(TaskEntity).count();
    const err = await tasks.create({ name: 'x', agent: '999999', script: 424242, schedule: '* * * * *' }, EVERY_CLIENT).catch((e: unknown) => e);
    expect(err).toMatchObject({ message: 'validation error' });
    expect((err as { fields: { field: string }[] }).fields).toEqual(
      expect.arrayContaining([
        { field: 'agent', message: 'no agent 999999' },
        { field: 'script', message: 'no script 424242' },
      ]),
    );
    expect((err as { fields: unknown[] }).fields).toHaveLength(2);
    expect(await ctx.repo(TaskEntity).count()).toBe(before);
  });

  it('refuses an invalid schedule even for a disabled task, naming schedule', async () => {
    const agent = await f.newAgent();
    const script = await f.newScript();
    await expect(tasks.create({ name: 'x', agent: String(agent.id), script: script.id, schedule: '61 * * * *', enabled: false }, EVERY_CLIENT)).rejects.toMatchObject({
      fields: [expect.objectContaining({ field: 'schedule', message: expect.stringMatching(/^invalid cron expression/) })],
    });
    expect(await ctx.repo(TaskEntity).countBy({ agentId: agent.id })).toBe(0);
  });

});
