import { CheckEntity, ScriptEntity, TaskEntity } from '@app/entities';
import { ScriptsService } from '../../../apps/api/src/rmm/automation/scripts/scripts.service';
import { MediumFactory } from '../medium.factory';
import { createMediumContext, MediumContext } from '../medium.harness';

describe('ScriptsService on PostgreSQL', () => {
  let ctx: MediumContext;
  let f: MediumFactory;
  let scripts: ScriptsService;

  beforeAll(async () => {
    ctx = await createMediumContext();
    f = new MediumFactory(ctx);
    scripts = ctx.get(ScriptsService);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('stores a new script with the trimmed name and the defaults: no description, no args, 90 s', async () => {
    const s = await scripts.create({ name: '  Uptime ', shell: 'bash', body: 'uptime' });
    expect(await ctx.repo(ScriptEntity).findOneByOrFail({ id: s.id })).toMatchObject({
      name: 'Uptime',
      shell: 'bash',
      body: 'uptime',
      description: null,
      defaultArgs: [],
      defaultTimeout: 90,
    });
  });

  it('refuses a second script with the same name, on create and on rename', async () => {
    await f.newScript({ name: 'Clear temp' });
    const other = await f.newScript();
    await expect(scripts.create({ name: 'Clear temp', shell: 'cmd', body: 'x' })).rejects.toMatchObject({ message: 'a script named "Clear temp" already exists' });
    await expect(scripts.update(other.id, { name: ' Clear temp ' })).rejects.toMatchObject({ message: 'a script named "Clear temp" already exists' });
    expect(await ctx.repo(ScriptEntity).countBy({ name: 'Clear temp' })).toBe(1);
    expect((await scripts.get(other.id)).name).toBe(other.name);
  });

  it('refuses to delete a script a task runs, saying so, and keeps it', async () => {
    const task = await f.newTask();
    await expect(scripts.delete(task.scriptId)).rejects.toMatchObject({
      message: `script ${task.scriptId} is used by 1 task(s) and 0 check(s): remove them first`,
    });
    expect(await ctx.repo(ScriptEntity).existsBy({ id: task.scriptId })).toBe(true);
    expect(await ctx.repo(TaskEntity).existsBy({ id: task.id })).toBe(true);
  });

  it('refuses to delete a script a check runs, and deletes it once the check is gone', async () => {
    const check = await f.newCheck({ checkType: 'script' });
    const scriptId = check.scriptId!;
    await expect(scripts.delete(scriptId)).rejects.toMatchObject({ message: `script ${scriptId} is used by 0 task(s) and 1 check(s): remove them first` });
    await ctx.repo(CheckEntity).delete({ id: check.id });
    await scripts.delete(scriptId);
    expect(await ctx.repo(ScriptEntity).existsBy({ id: scriptId })).toBe(false);
    await expect(scripts.get(scriptId)).rejects.toMatchObject({ message: 'Not found' });
    await expect(scripts.delete(scriptId)).rejects.toMatchObject({ message: 'Not found' });
  });
});
