import { Injectable } from '@nestjs/common';
import { TaskEntity, TaskRunEntity } from '@app/entities';
import { Clock } from '../../common/clock';
import { FieldError, invalid, notFound } from '../../common/errors/domain-error';
import { Page } from '../common/pagination.dto';
import { nextRun } from './schedule';
import { TaskRunsRepository } from './task-runs.repository';
import { CreateTaskDto, UpdateTaskDto } from './tasks.dto';
import { TaskFields, TasksRepository } from './tasks.repository';

@Injectable()
export class TasksService {
  constructor(
    private readonly repo: TasksRepository,
    private readonly runsRepo: TaskRunsRepository,
    private readonly clock: Clock,
  ) {}

  list(agentId: number | undefined, page: Page): Promise<[TaskEntity[], number]> {
    return this.repo.list(agentId, page);
  }

  async get(id: number): Promise<TaskEntity> {
    const t = await this.repo.findById(id);
    if (!t) throw notFound();
    return t;
  }

  async create(body: CreateTaskDto): Promise<TaskEntity> {
    const enabled = body.enabled ?? true;
    const next = nextRun(body.schedule, this.clock.now()); // validates the schedule even when disabled
    const agentId = Number(body.agent);
    const errors: FieldError[] = [];
    if (!(await this.repo.agentExists(agentId))) errors.push({ field: 'agent', message: `no agent ${body.agent}` });
    if (!(await this.repo.scriptExists(body.script))) errors.push({ field: 'script', message: `no script ${body.script}` });
    if (errors.length > 0) throw invalid('validation error', errors);
    return this.repo.insert({ name: body.name.trim(), agentId, scriptId: body.script, schedule: body.schedule.trim(), enabled, nextRunAt: enabled ? next : null });
  }

  /**
   * next_run_at follows the schedule and the enabled flag: changing the schedule or enabling the task sets it
   * to the first due time after now (an enabled task's missed due times are not run); disabling clears it.
   */
  async update(id: number, body: UpdateTaskDto): Promise<TaskEntity> {
    const task = await this.get(id);
    const fields: Partial<TaskFields> = {};
    if (body.name !== undefined) fields.name = body.name.trim();
    if (body.script !== undefined) {
      if (!(await this.repo.scriptExists(body.script))) throw invalid('validation error', [{ field: 'script', message: `no script ${body.script}` }]);
      fields.scriptId = body.script;
    }
    if (body.schedule !== undefined) fields.schedule = body.schedule.trim();
    if (body.enabled !== undefined) fields.enabled = body.enabled;
    if (body.schedule !== undefined || body.enabled !== undefined) {
      const schedule = fields.schedule ?? task.schedule;
      const next = nextRun(schedule, this.clock.now());
      fields.nextRunAt = (fields.enabled ?? task.enabled) ? next : null;
    }
    await this.repo.update(id, fields);
    return this.get(id);
  }

  /** A task's runs, newest first (404 for an unknown task). */
  async runs(id: number, page: Page): Promise<[TaskRunEntity[], number]> {
    await this.get(id);
    return this.runsRepo.list(id, page);
  }

  async run(id: number, runId: number): Promise<TaskRunEntity> {
    const run = await this.runsRepo.findById(id, runId);
    if (!run) throw notFound();
    return run;
  }

  async delete(id: number): Promise<void> {
    if (!(await this.repo.delete(id))) throw notFound();
  }
}
