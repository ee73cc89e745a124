import { Injectable } from '@nestjs/common';
import { AgentEntity } from '@app/entities';
import { ClientScope, EVERY_CLIENT } from '../../common/client-scope';
import { FieldError, fieldInvalid, invalid, notFound } from '../../../common/errors/domain-error';
import { Clock } from '../../../common/clock';
import { TransactionHost } from '../../../database/transaction-host';
import { AuditedChange, ChangeActor } from '../../access/audit/audit-change';
import { AuditService } from '../../access/audit/audit.service';
import { RmmEvents } from '../../common/bus/rmm-events';
import { MAX_TAGS, normalizeTags } from '../../common/agent-tags';
import { Page } from '../../common/pagination.dto';
import { AgentChangeable, AgentFilter, AgentsRepository } from './agents.repository';
import { AgentDetailDto, AgentDto, BulkTagsDto, BulkTagsResultDto, toAgentDetailDto, toAgentDto, UpdateAgentDto } from './agents.dto';
import { AGENT_STREAM_BATCH } from './agents.sql';
import { Readable } from 'node:stream';
import { AgentChannel } from '../agent-channel/agent-channel';

@Injectable()
export class AgentsService {
  constructor(
    private readonly repo: AgentsRepository,
    private readonly channel: AgentChannel,
    private readonly tx: TransactionHost,
    private readonly events: RmmEvents,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  /** The list's tag filter in stored form (lowercase); a value that cannot be a tag is a 400 naming `tag`. */
  tagFilter(raw: readonly string[] | undefined): string[] | undefined {
    if (raw === undefined) return undefined;
    const { tags, errors } = normalizeTags(raw, 'tag');
    if (errors.length > 0) throw invalid('validation error', errors);
    return tags;
  }

  /**
   * PATCH: tags (replaced), monitoring_type, maintenance; at least one. The agent's row is locked, read, and
   * written in one transaction; only what changed is written, audited (before and after) and announced after the
   * commit: agent.updated, and agents.regrouped when what policies match on changed (tags, monitoring_type).
   */
  async update(id: number, body: UpdateAgentDto, clients: ClientScope, actor: ChangeActor): Promise<AgentDetailDto> {
    if (body.tags === undefined && body.monitoring_type === undefined && body.maintenance === undefined) {
      throw fieldInvalid('tags', 'give tags, monitoring_type or maintenance (or several)');
    }
    let tags: string[] | undefined;
    if (body.tags !== undefined) {
      const normal = normalizeTags(body.tags, 'tags');
      if (normal.errors.length > 0) throw invalid('validation error', normal.errors);
      tags = normal.tags;
    }
    await this.tx.run(async () => {
      const was = await this.repo.lockForChange(id, clients);
      if (!was) throw notFound();
      const wanted: Partial<AgentChangeable> = { tags, monitoring_type: body.monitoring_type, maintenance: body.maintenance };
      const before: Record<string, unknown> = {};
      const after: Record<string, unknown> = {};
      for (const key of ['tags', 'monitoring_type', 'maintenance'] as const) {
        const value = wanted[key];
        if (value === undefined || JSON.stringify(value) === JSON.stringify(was[key])) continue;
        before[key] = was[key];
        after[key] = value;
      }
      if (Object.keys(after).length === 0) return;
      await this.repo.change(id, after as Partial<AgentChangeable>);
      this.audited(actor, [{ target: agentPath(id), before, after }]);
      this.events.emit('agent.updated', { agentId: id });
      if ('tags' in after || 'monitoring_type' in after) this.events.emit('agents.regrouped', { agentIds: [id] });
    });
    return this.detail(id, clients);
  }

  /**
   * POST /api/v3/agents/tags/: adds and removes tags on many agents in one statement. Every agent must exist for the
   * caller (else 400 naming them, nothing changed); an agent that would end with more than MAX_TAGS tags refuses the
   * whole edit. `updated`: the agents whose tags changed; each is audited and gets agent.updated, and all of them one
   * agents.regrouped, after the commit.
   */
  async bulkTags(body: BulkTagsDto, clients: ClientScope, actor: ChangeActor): Promise<BulkTagsResultDto> {
    const add = normalizeTags(body.add ?? [], 'add');
    const remove = normalizeTags(body.remove ?? [], 'remove');
    const errors: FieldError[] = [...add.errors, ...remove.errors];
    for (const tag of add.tags.filter((t) => remove.tags.includes(t))) errors.push({ field: 'remove', message: `"${tag}" is both added and removed` });
    if (errors.length === 0 && add.tags.length === 0 && remove.tags.length === 0) errors.push({ field: 'add', message: 'give a tag to add or to remove' });
    if (errors.length > 0) throw invalid('validation error', errors);
    const ids = [...new Set(body.agents.map(Number))];
    const changed = await this.tx.run(async () => {
      const found = await this.repo.found(ids, clients);
      const missing = ids.filter((i) => !found.has(i));
      if (missing.length > 0) {
        const named = missing.slice(0, 10).join(', ') + (missing.length > 10 ? ` and ${missing.length - 10} more` : '');
        throw fieldInvalid('agents', `no agent ${named}`);
      }
      const rows = await this.repo.retag(ids, add.tags, remove.tags, clients);
      const over = rows.filter((r) => r.after.length > MAX_TAGS);
      if (over.length > 0) throw fieldInvalid('add', `agent ${over[0].id} would have ${over[0].after.length} tags: at most ${MAX_TAGS}`);
      this.audited(
        actor,
        rows.map((r) => ({ target: agentPath(r.id), before: { tags: r.before }, after: { tags: r.after } })),
      );
      for (const r of rows) this.events.emit('agent.updated', { agentId: r.id });
      if (rows.length > 0) this.events.emit('agents.regrouped', { agentIds: rows.map((r) => r.id) });
      return rows.length;
    });
    return { updated: changed };
  }

  /** The change rows of the audit log, queued once the transaction this runs in commits (never for a rolled-back change). */
  private audited(actor: ChangeActor, changes: AuditedChange[]): void {
    const at = this.clock.now();
    this.tx.afterCommit(() => this.audit.changed(actor, changes, at));
  }

  /** One page of the agents the caller may see, and how many of them the filter matches (X-Total-Count). */
  async page(filter: AgentFilter, page: Page, clients: ClientScope): Promise<[AgentDto[], number]> {
    const [rows, total] = await this.repo.page(filter, page, clients);
    return [rows.map(toAgentDto), total];
  }

  /**
   * Every agent the filter matches, by id. Up to one batch: the plain array (the answer is exactly as it
   * always was). More: a stream of JSON text, written batch by batch (keyset pages of AGENT_STREAM_BATCH),
   * so that no giant string or array of 20,000 agents is ever held in memory.
   */
  async all(filter: AgentFilter, clients: ClientScope): Promise<AgentDto[] | Readable> {
    const first = await this.repo.batchAfter(filter, 0, AGENT_STREAM_BATCH, clients);
    if (first.length < AGENT_STREAM_BATCH) return first.map(toAgentDto);
    const repo = this.repo;
    async function* pieces(): AsyncGenerator<string> {
      let rows = first;
      let sep = '[';
      while (rows.length > 0) {
        let chunk = '';
        for (const r of rows) {
          chunk += sep + JSON.stringify(toAgentDto(r));
          sep = ',';
        }
        yield chunk;
        if (rows.length < AGENT_STREAM_BATCH) break;
        rows = await repo.batchAfter(filter, rows[rows.length - 1].id, AGENT_STREAM_BATCH, clients);
      }
      yield ']';
    }
    return Readable.from(pieces(), { objectMode: false });
  }

  /** True when the agent exists and is of a client the caller may see (`clients`). */
  exists(id: number, clients: ClientScope): Promise<boolean> {
    return this.repo.exists(id, clients);
  }

  /** The agent detail object, straight from one row (the HTTP route); 404 for an agent of another client. */
  async detail(id: number, clients: ClientScope = EVERY_CLIENT): Promise<AgentDetailDto> {
    const row = await this.repo.findRowById(id, clients);
    if (!row) throw notFound();
    return toAgentDetailDto(row);
  }

  /** The agent's entity (the events WebSocket's hello and agent.updated); `clients`: 404 for another client's. */
  async get(id: number, clients: ClientScope = EVERY_CLIENT): Promise<AgentEntity> {
    const agent = await this.repo.findById(id, clients);
    if (!agent) throw notFound();
    return agent;
  }

  /**
   * Removes the server's record. The installed agent is not touched, unless `uninstall`: a connected agent (on any
   * instance) is first told to uninstall itself (agent.uninstall: it removes its service and files and exits).
   * Answers whether that message went out ('sent'), or there was no connection to send it on ('not connected').
   */
  async delete(id: number, clients: ClientScope, uninstall = false): Promise<'sent' | 'not connected' | null> {
    let told: 'sent' | 'not connected' | null = null;
    if (uninstall) {
      if (!(await this.repo.exists(id, clients))) throw notFound();
      told = (await this.channel.notify(id, { type: 'agent.uninstall' })) ? 'sent' : 'not connected';
    }
    if (!(await this.repo.delete(id, clients))) throw notFound();
    return told;
  }
}

const agentPath = (id: number): string => `/api/v3/agents/${id}/`;
