import { Injectable } from '@nestjs/common';
import { TaskEntity, TaskRunEntity } from '@app/entities';
import { Clock } from '../../../common/clock';
import { FieldError, invalid, notFound } from '../../../common/errors/domain-error';
import { ClientScope } from '../../common/client-scope';
import { Page } from '../../common/pagination.dto';
import { nextRun } from './schedule';
import { TaskRunsRepository } from './task-runs.repository';
import { CreateTaskDto, PREVIEW_RUNS, SchedulePreviewDto, UpdateTaskDto } from './tasks.dto';
import { TaskFields, TasksRepository } from './tasks.repository';

@Injectable()
export class TasksService {
  constructor(
    private readonly repo: TasksRepository,
    private readonly runsRepo: TaskRunsRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * The next due times of a schedule, computed by the same parser the scheduler uses (a 400 naming `schedule` when
   * it is not one), so the console's preview is what the task will do.
   */
  preview(schedule: string): SchedulePreviewDto {
    const runs: Date[] = [];
    let from = this.clock.now();
    while (runs.length < PREVIEW_RUNS) runs.push((from = nextRun(schedule, from)));
    return { schedule: schedule.trim(), next_runs: runs.map((d) => d.toISOString()) };
  }

  /** `clients`: the caller's (tasks of other clients' agents do not exist for it: 404, absent from lists). */
  list(agentId: number | undefined, page: Page, clients: ClientScope): Promise<[TaskEntity[], number]> {
    return this.repo.list(agentId, page, clients);
  }

  async get(id: number, clients: ClientScope): Promise<TaskEntity> {
    const t = await this.repo.findById(id, clients);
    if (!t) throw notFound();
    return t;
  }

  /** An agent of another client than the caller's is answered as an unknown one (400 naming `agent`). */
  async create(body: CreateTaskDto, clients: ClientScope): Promise<TaskEntity> {
    const enabled = body.enabled ?? true;
    const next = nextRun(body.schedule, this.clock.now()); // validates the schedule even when disabled
    const agentId = Number(body.agent);
    const errors: FieldError[] = [];
    if (!(await this.repo.agentExists(agentId, clients))) errors.push({ field: 'agent', message: `no agent ${body.agent}` });
    if (!(await this.repo.scriptExists(body.script))) errors.push({ field: 'script', message: `no script ${body.script}` });
    if (errors.length > 0) throw invalid('validation error', errors);
    return this.repo.insert({ name: body.name.trim(), agentId, scriptId: body.script, schedule: body.schedule.trim(), enabled, nextRunAt: enabled ? next : null, queueIfOffline: body.queue_if_offline ?? false, skipInMaintenance: body.skip_in_maintenance ?? false });
  }

  /**
   * next_run_at follows the schedule and the enabled flag: changing the schedule or enabling the task sets it
   * to the first due time after now (an enabled task's missed due times are not run); disabling clears it.
   */
  async update(id: number, body: UpdateTaskDto, clients: ClientScope): Promise<TaskEntity> {
    const task = await this.get(id, clients);
    const fields: Partial<TaskFields> = {};
    if (body.name !== undefined) fields.name = body.name.trim();
    if (body.script !== undefined) {
      if (!(await this.repo.scriptExists(body.script))) throw invalid('validation error', [{ field: 'script', message: `no script ${body.script}` }]);
      fields.scriptId = body.script;
    }
    if (body.schedule !== undefined) fields.schedule = body.schedule.trim();
    if (body.enabled !== undefined) fields.enabled = body.enabled;
    if (body.queue_if_offline !== undefined) fields.queueIfOffline = body.queue_if_offline;
    if (body.skip_in_maintenance !== undefined) fields.skipInMaintenance = body.skip_in_maintenance;
    if (body.schedule !== undefined || body.enabled !== undefined) {
      const schedule = fields.schedule ?? task.schedule;
      const next = nextRun(schedule, this.clock.now());
      fields.nextRunAt = (fields.enabled ?? task.enabled) ? next : null;
    }
    await this.repo.update(id, fields);
    return this.get(id, clients);
  }

  /** A task's runs, newest first (404 for an unknown task). */
  async runs(id: number, page: Page, clients: ClientScope): Promise<[TaskRunEntity[], number]> {
    await this.get(id, clients);
    return this.runsRepo.list(id, page);
  }

  async run(id: number, runId: number, clients: ClientScope): Promise<TaskRunEntity> {
    await this.get(id, clients);
    const run = await this.runsRepo.findById(id, runId);
    if (!run) throw notFound();
    return run;
  }

  async delete(id: number, clients: ClientScope): Promise<void> {
    await this.get(id, clients);
    if (!(await this.repo.delete(id))) throw notFound();
  }
}
