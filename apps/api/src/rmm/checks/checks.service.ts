import { Injectable } from '@nestjs/common';
import { CheckEntity, CheckType } from '@app/entities';
import { invalid, notFound } from '../../common/errors/domain-error';
import { Page } from '../common/pagination.dto';
import { defaultCheckName, settingsErrors } from './check-settings';
import { CreateCheckDto, UpdateCheckDto } from './checks.dto';
import { CheckFields, ChecksRepository } from './checks.repository';

@Injectable()
export class ChecksService {
  constructor(private readonly repo: ChecksRepository) {}

  list(agentId: number | undefined, page: Page): Promise<[CheckEntity[], number]> {
    return this.repo.list(agentId, page);
  }

  async get(id: number): Promise<CheckEntity> {
    const c = await this.repo.findById(id);
    if (!c) throw notFound();
    return c;
  }

  async create(body: CreateCheckDto): Promise<CheckEntity> {
    const agentId = Number(body.agent);
    const settings = await this.validSettings(body.check_type, body.settings);
    if (!(await this.repo.agentExists(agentId))) throw invalid('validation error', [{ field: 'agent', message: `no agent ${body.agent}` }]);
    return this.repo.insert({
      agentId,
      checkType: body.check_type,
      name: body.name?.trim() || defaultCheckName(body.check_type, body.settings),
      ...settings,
      failsB4Alert: body.fails_b4_alert ?? 1,
    });
  }

  async update(id: number, body: UpdateCheckDto): Promise<CheckEntity> {
    const check = await this.get(id);
    const fields: Partial<CheckFields> = {};
    if (body.name !== undefined) fields.name = body.name.trim();
    if (body.fails_b4_alert !== undefined) fields.failsB4Alert = body.fails_b4_alert;
    if (body.settings !== undefined) Object.assign(fields, await this.validSettings(check.checkType, body.settings));
    await this.repo.update(id, fields);
    return this.get(id);
  }

  async delete(id: number): Promise<void> {
    if (!(await this.repo.delete(id))) throw notFound();
  }

  /** The settings to store: checked per type; a script check's script is a real reference (script_id). */
  private async validSettings(type: CheckType, given: Record<string, unknown>): Promise<Pick<CheckFields, 'settings' | 'scriptId'>> {
    const errors = settingsErrors(type, given);
    if (errors.length > 0) throw invalid('validation error', errors);
    if (type !== 'script') return { settings: given, scriptId: null };
    const { script, ...rest } = given;
    if (!(await this.repo.scriptExists(script as number))) throw invalid('validation error', [{ field: 'settings.script', message: `no script ${script}` }]);
    return { settings: rest, scriptId: script as number };
  }
}
