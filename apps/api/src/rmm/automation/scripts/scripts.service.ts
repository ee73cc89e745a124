import { Injectable } from '@nestjs/common';
import { ScriptEntity } from '@app/entities';
import { DomainError, notFound } from '../../../common/errors/domain-error';
import { TransactionHost } from '../../../database/transaction-host';
import { permissionDenied } from '../../common/principal';
import { ScriptsErrorCode } from './scripts.errors';
import { isStillReferenced, isUniqueViolation } from '../../../database/pg-errors';
import { ClientScope, EVERY_CLIENT } from '../../common/client-scope';
import { Page } from '../../common/pagination.dto';
import { CreateScriptDto, UpdateScriptDto } from './scripts.dto';
import { ScriptFields, ScriptsRepository } from './scripts.repository';

/** What a script makes an agent run: changing one of these of a script in use needs scripts:run. */
export const SCRIPT_CODE_FIELDS = ['body', 'shell', 'args'] as const;

@Injectable()
export class ScriptsService {
  /** Told the id of each script that changed (the checks module re-sends the script checks that run it). */
  private readonly changeListeners = new Set<(scriptId: number) => void>();

  constructor(
    private readonly repo: ScriptsRepository,
    private readonly tx: TransactionHost,
  ) {}

  /** Calls `listener` after each change of a script; returns the function that stops it. */
  onChanged(listener: (scriptId: number) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  list(page: Page): Promise<[ScriptEntity[], number]> {
    return this.repo.list(page);
  }

  exists(id: number): Promise<boolean> {
    return this.repo.exists(id);
  }

  async get(id: number): Promise<ScriptEntity> {
    const s = await this.repo.findById(id);
    if (!s) throw notFound();
    return s;
  }

  async create(body: CreateScriptDto): Promise<ScriptEntity> {
    const fields: ScriptFields = {
      name: body.name.trim(),
      shell: body.shell,
      description: body.description ?? null,
      body: body.body,
      defaultArgs: body.args ?? [],
      defaultTimeout: body.default_timeout ?? 90,
    };
    return this.unique(fields.name, () => this.repo.insert(fields));
  }

  /**
   * Changes the fields given. Giving body, shell or args (even unchanged) for a script that a check or task
   * uses makes code run on agents: that needs `mayRunScripts` (the key's scripts:run), else 403 and nothing
   * written. The script's row is locked while it is checked and written, so no check or task can start using it
   * in between. Scripts are one library for every client, but a caller limited to some clients may not change the
   * code of a script that a check or task of another client runs (403): that code would run on agents it may not see.
   */
  async update(id: number, body: UpdateScriptDto, mayRunScripts = false, clients: ClientScope = EVERY_CLIENT): Promise<ScriptEntity> {
    await this.get(id);
    const fields: Partial<ScriptFields> = {};
    if (body.name !== undefined) fields.name = body.name.trim();
    if (body.shell !== undefined) fields.shell = body.shell;
    if (body.description !== undefined) fields.description = body.description;
    if (body.body !== undefined) fields.body = body.body;
    if (body.args !== undefined) fields.defaultArgs = body.args;
    if (body.default_timeout !== undefined) fields.defaultTimeout = body.default_timeout;
    const code = SCRIPT_CODE_FIELDS.some((f) => body[f] !== undefined);
    const guarded = code && (!mayRunScripts || clients !== null);
    const write = guarded
      ? () =>
          this.tx.run(async () => {
            if (!(await this.repo.lockForUpdate(id))) throw notFound();
            if (!mayRunScripts) {
              const used = await this.repo.usage(id);
              if (used.tasks + used.checks > 0) throw permissionDenied();
            }
            if (clients !== null && (await this.repo.usedOutside(id, clients))) throw permissionDenied();
            await this.repo.update(id, fields);
          })
      : () => this.repo.update(id, fields);
    await this.unique(fields.name ?? '', write);
    for (const listener of this.changeListeners) listener(id);
    return this.get(id);
  }

  /** Refused while a task or a check runs the script (400 saying how many; a limited caller is not told counts of other clients). */
  async delete(id: number, clients: ClientScope = EVERY_CLIENT): Promise<void> {
    await this.get(id);
    const used = await this.repo.usage(id);
    if (used.tasks + used.checks > 0) {
      throw new DomainError(
        ScriptsErrorCode.InUse,
        clients === null ? `script ${id} is used by ${used.tasks} task(s) and ${used.checks} check(s): remove them first` : `script ${id} is in use by checks or tasks: remove them first`,
      );
    }
    try {
      await this.repo.delete(id);
    } catch (err) {
      if (isStillReferenced(err)) throw new DomainError(ScriptsErrorCode.InUse, `script ${id} is in use`);
      throw err;
    }
  }

  private async unique<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw new DomainError(ScriptsErrorCode.NameTaken, `a script named "${name}" already exists`, [{ field: 'name', message: 'already exists' }]);
      throw err;
    }
  }
}
