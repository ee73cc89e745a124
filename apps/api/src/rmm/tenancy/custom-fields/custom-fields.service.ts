import { Injectable } from '@nestjs/common';
import { ApiKeyScope, CustomFieldEntity, CustomFieldScope, CustomFieldType, CustomFieldValue } from '@app/entities';
import { DomainError, fieldInvalid, notFound } from '../../../common/errors/domain-error';
import { isUniqueViolation } from '../../../database/pg-errors';
import { TransactionHost } from '../../../database/transaction-host';
import { RmmEvents } from '../../common/bus/rmm-events';
import { ClientScope, inScope } from '../../common/client-scope';
import { Page } from '../../common/pagination.dto';
import { hasScope, Principal } from '../../common/principal';
import { AuditService } from '../../access/audit/audit.service';
import { argText, Checked, checkValue, MAX_CUSTOM_FIELDS, MAX_TEXT_VALUE, shownValue } from './custom-field-rules';
import { CustomFieldsErrorCode } from './custom-fields.errors';
import { CustomFieldsRepository, StoredValue } from './custom-fields.repository';
import { BUILT_IN, fillPlaceholders, placeholdersOf } from './script-placeholders';

/** The read scope a definition of each scope needs (the resource its values belong to). */
const READ_SCOPE: Record<CustomFieldScope, ApiKeyScope> = { agent: 'agents:read', site: 'clients:read', client: 'clients:read' };

export interface NewField {
  name: string;
  label: string;
  scope: CustomFieldScope;
  type: CustomFieldType;
  options?: string[];
  default?: unknown;
  required?: boolean;
}

export type FieldChange = Partial<NewField> & { default?: unknown };

/** The values of one agent, site or client as answered: `{name: value}`. */
export type ShownValues = Record<string, CustomFieldValue | null>;

/**
 * Custom fields (docs/custom-fields.md): definitions (admin writes; a caller reads those of the scopes it may read),
 * values per agent, site and client (a partial merge; null clears; checked against the field's type), and the
 * placeholders scripts' arguments may carry, filled in when a run is sent.
 */
@Injectable()
export class CustomFieldsService {
  constructor(
    private readonly repo: CustomFieldsRepository,
    private readonly tx: TransactionHost,
    private readonly events: RmmEvents,
    private readonly audit: AuditService,
  ) {}

  /** What a request changed, for its audit row (`changes`: before and after, secrets masked), once it has committed. */
  private noted(requestId: string | undefined, before: Record<string, unknown> | null, after: Record<string, unknown> | null): void {
    if (requestId !== undefined) this.audit.noteChanges(requestId, { before, after });
  }

  /** The scopes whose definitions the caller may read (agents:read: the agents'; clients:read: the sites' and clients'). */
  readableScopes(caller: Pick<Principal, 'scopes'>): CustomFieldScope[] {
    return (Object.keys(READ_SCOPE) as CustomFieldScope[]).filter((s) => hasScope(caller, READ_SCOPE[s]));
  }

  list(caller: Pick<Principal, 'scopes'>, scope: CustomFieldScope | undefined, page: Page): Promise<[CustomFieldEntity[], number]> {
    const scopes = this.readableScopes(caller).filter((s) => scope === undefined || s === scope);
    return this.repo.list(scopes, page);
  }

  /** One definition; 404 also when the caller may not read its scope. */
  async get(id: number, caller: Pick<Principal, 'scopes'>): Promise<CustomFieldEntity> {
    const field = await this.repo.findById(id);
    if (!field || !this.readableScopes(caller).includes(field.scope)) throw notFound();
    return field;
  }

  /** A new definition: at most MAX_CUSTOM_FIELDS in all (counted under a lock), the name unique in its scope. */
  async create(input: NewField, requestId?: string): Promise<CustomFieldEntity> {
    const label = labelOf(input.label);
    const options = optionsFor(input.type, input.options);
    const defaultValue = defaultFor({ type: input.type, options }, input.default);
    const field = await this.tx.run(async () => {
      if ((await this.repo.lockAndCount()) >= MAX_CUSTOM_FIELDS) throw new DomainError(CustomFieldsErrorCode.TooMany, `at most ${MAX_CUSTOM_FIELDS} custom fields`);
      try {
        return await this.repo.insert({ name: input.name, label, scope: input.scope, type: input.type, options, defaultValue, required: input.required ?? false });
      } catch (err) {
        if (isUniqueViolation(err)) throw nameTaken(input.scope, input.name);
        throw err;
      }
    });
    this.noted(requestId, null, definitionAudit(field));
    return field;
  }

  /**
   * Changes a definition. label, options, default and required at any time; name, scope and type only while no
   * agent, site or client holds a value of it (400 "custom field x has values: …"). An option some value holds
   * cannot be removed; the default must fit the field as it becomes.
   */
  async update(id: number, change: FieldChange, requestId?: string): Promise<CustomFieldEntity> {
    const updated = await this.tx.run(async () => {
      const field = await this.repo.findById(id);
      if (!field) throw notFound();
      const before = definitionAudit(field);
      const name = change.name ?? field.name;
      const scope = change.scope ?? field.scope;
      const type = change.type ?? field.type;
      const immutable = name !== field.name || scope !== field.scope || type !== field.type;
      if (immutable && (await this.repo.countValues(id)) > 0) {
        throw new DomainError(CustomFieldsErrorCode.HasValues, `custom field ${field.name} has values: its name, scope and type cannot change (delete the values, or the field)`);
      }
      const typeChanged = type !== field.type;
      const options = optionsFor(type, change.options ?? (typeChanged && !isChoice(type) ? undefined : (field.options ?? undefined)));
      if (field.options && options) {
        const removed = field.options.filter((o) => !options.includes(o));
        const held = await this.repo.optionsInUse(id, removed);
        if (held.length > 0) throw fieldInvalid('options', `option ${held.join(', ')} is held by a value: set those values first`);
      }
      const defaultValue = 'default' in change ? defaultFor({ type, options }, change.default) : keptDefault({ type, options }, field.defaultValue);
      try {
        await this.repo.update(id, { name, label: change.label === undefined ? field.label : labelOf(change.label), scope, type, options, defaultValue, required: change.required ?? field.required });
      } catch (err) {
        if (isUniqueViolation(err)) throw nameTaken(scope, name);
        throw err;
      }
      const after = (await this.repo.findById(id))!;
      return { before, after };
    });
    this.noted(requestId, updated.before, definitionAudit(updated.after));
    return updated.after;
  }

  /** Deletes a definition and every value of it. */
  async remove(id: number, requestId?: string): Promise<void> {
    const field = await this.repo.findById(id);
    if (!field || !(await this.repo.delete(id))) throw notFound();
    this.noted(requestId, definitionAudit(field), null);
  }

  /** The values an agent, site or client answers with (every field of its scope; defaults applied; secrets masked). */
  async shown(scope: CustomFieldScope, ownerIds: readonly number[]): Promise<Map<number, ShownValues>> {
    return (await this.repo.shownOf(scope, ownerIds)) as Map<number, ShownValues>;
  }

  /** GET-like view of one owner's values (after the checks of the route that asks). */
  async shownOne(scope: CustomFieldScope, ownerId: number): Promise<ShownValues> {
    return (await this.shown(scope, [ownerId])).get(ownerId) ?? {};
  }

  /** PUT …/agents/{id}/custom-fields/: 404 for an agent the caller may not see. */
  async putAgentValues(agentId: number, body: unknown, clients: ClientScope, requestId?: string): Promise<ShownValues> {
    const client = await this.repo.agentClient(agentId);
    if (client === undefined || !inScope(clients, client)) throw notFound();
    const values = await this.putValues('agent', agentId, body, requestId);
    // The events WebSockets' agent.updated carries custom_fields (secrets masked), as the detail does.
    this.events.emit('agent.updated', { agentId });
    return values;
  }

  async putClientValues(clientId: number, body: unknown, clients: ClientScope, requestId?: string): Promise<ShownValues> {
    if (!inScope(clients, clientId) || !(await this.repo.clientExists(clientId))) throw notFound();
    return this.putValues('client', clientId, body, requestId);
  }

  async putSiteValues(clientId: number, siteId: number, body: unknown, clients: ClientScope, requestId?: string): Promise<ShownValues> {
    if (!inScope(clients, clientId) || !(await this.repo.siteOfClient(clientId, siteId))) throw notFound();
    return this.putValues('site', siteId, body, requestId);
  }

  /**
   * Sets the values named in `body` (`{name: value}`; null clears), in one transaction, after checking them all:
   * an unknown name or a value its type refuses is 400 naming the field, nothing written. Answers every value of
   * the owner as reads do; notes the named fields' values before and after for the audit (secrets masked).
   */
  private async putValues(scope: CustomFieldScope, ownerId: number, body: unknown, requestId?: string): Promise<ShownValues> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw fieldInvalid('body', 'must be an object of {name: value}');
    const entries = Object.entries(body as Record<string, unknown>);
    const done = await this.tx.run(async () => {
      const stored = new Map((await this.repo.stored(scope, ownerId)).map((s) => [s.name, s]));
      const changes: Array<{ field: StoredValue; value: CustomFieldValue | null }> = [];
      for (const [name, raw] of entries) {
        const field = stored.get(name);
        if (!field) throw fieldInvalid(name, `no ${scope} field ${name}`, `unknown field ${scope}.${name}`);
        if (raw === null) {
          changes.push({ field, value: null });
          continue;
        }
        const checked = checkValue({ type: field.type, options: await this.optionsOf(field) }, raw);
        if (!checked.ok) throw fieldInvalid(name, checked.reason, `${name}: ${checked.reason}`);
        changes.push({ field, value: checked.value });
      }
      const before: ShownValues = {};
      const after: ShownValues = {};
      for (const { field, value } of changes) {
        before[field.name] = shownValue(field.type, field.value);
        after[field.name] = shownValue(field.type, value);
        if (value === null) await this.repo.clearValue(scope, ownerId, field.fieldId);
        else await this.repo.setValue(scope, ownerId, field.fieldId, value);
      }
      return { before, after, values: await this.shownOne(scope, ownerId) };
    });
    this.noted(requestId, done.before, done.after);
    return done.values;
  }

  private async optionsOf(field: StoredValue): Promise<string[] | null> {
    if (field.type !== 'select' && field.type !== 'multiselect') return null;
    return (await this.repo.findById(field.fieldId))?.options ?? [];
  }

  /**
   * A collector run's output as the agent's value of `name` (runscript output collector): the trimmed stdout, read
   * as the field's type (a number, true/false, a multiselect's comma-separated options, else the text). The reason
   * when the field refuses it (nothing written): `custom field x: must be a finite number`.
   */
  async collect(agentId: number, name: string, stdout: string): Promise<{ ok: true } | { ok: false; reason: string }> {
    const field = (await this.repo.stored('agent', agentId)).find((s) => s.name === name);
    if (!field) return { ok: false, reason: `custom field ${name}: no such agent field` };
    const text = stdout.trim();
    const checked = text.length > MAX_TEXT_VALUE ? ({ ok: false, reason: `at most ${MAX_TEXT_VALUE} characters` } as Checked) : checkValue({ type: field.type, options: await this.optionsOf(field) }, collected(field.type, text));
    if (!checked.ok) return { ok: false, reason: `custom field ${name}: ${checked.reason}` };
    await this.repo.setValue('agent', agentId, field.fieldId, checked.value);
    this.events.emit('agent.updated', { agentId });
    return { ok: true };
  }

  /** Whether the agent scope has a field of this name (runscript's custom_field). */
  async agentFieldExists(name: string): Promise<boolean> {
    return (await this.repo.ofScope('agent')).some((f) => f.name === name);
  }

  /**
   * The arguments a run of this agent is sent with: each placeholder filled in with the agent's hostname, its site's
   * or client's name, or the value of the agent's, its site's or its client's field (else the field's default, else
   * empty; a multiselect joined with commas; a secret's real value). Throws UnknownField (`unknown field
   * client.foo`) for a name no field of that scope has. The stored run keeps the arguments as given.
   */
  async fillArgs(agentId: number, args: readonly string[]): Promise<string[]> {
    const wanted = placeholdersOf(args);
    if (wanted.length === 0) return [...args];
    const place = await this.repo.agentPlace(agentId);
    if (!place) throw notFound();
    const owners: Record<CustomFieldScope, number | null> = { agent: agentId, site: place.siteId, client: place.clientId };
    const builtIn: Record<string, string> = { 'agent.hostname': place.hostname, 'site.name': place.siteName ?? '', 'client.name': place.clientName ?? '' };
    const values = new Map<string, string>();
    const loaded = new Map<CustomFieldScope, Map<string, StoredValue>>();
    for (const p of wanted) {
      const key = `${p.scope}.${p.name}`;
      if (BUILT_IN[p.scope].includes(p.name)) {
        values.set(key, builtIn[key]);
        continue;
      }
      let fields = loaded.get(p.scope);
      if (!fields) {
        const owner = owners[p.scope];
        const rows = owner === null ? (await this.repo.ofScope(p.scope)).map((f) => ({ fieldId: f.id, name: f.name, type: f.type, value: null, defaultValue: f.defaultValue })) : await this.repo.stored(p.scope, owner);
        fields = new Map(rows.map((r) => [r.name, r]));
        loaded.set(p.scope, fields);
      }
      const field = fields.get(p.name);
      if (!field) throw new DomainError(CustomFieldsErrorCode.UnknownField, `unknown field ${key}`);
      values.set(key, argText(field.value ?? (field.type === 'secret' ? null : field.defaultValue)));
    }
    return fillPlaceholders(args, values);
  }
}

/** A label trimmed, never empty. */
function labelOf(label: string): string {
  const clean = label.trim();
  if (!clean) throw fieldInvalid('label', 'must not be empty');
  return clean;
}

const isChoice = (type: CustomFieldType): boolean => type === 'select' || type === 'multiselect';

/** The options a field of this type keeps: required (distinct) for select and multiselect, refused for the others. */
function optionsFor(type: CustomFieldType, options: string[] | undefined): string[] | null {
  if (!isChoice(type)) {
    if (options !== undefined) throw fieldInvalid('options', `only for select and multiselect, not ${type}`);
    return null;
  }
  if (options === undefined || options.length === 0) throw fieldInvalid('options', `required for ${type}`);
  if (new Set(options).size !== options.length) throw fieldInvalid('options', 'must be distinct');
  return [...options];
}

/** A default as given (undefined or null: none), checked like a value; a secret has none. */
function defaultFor(field: { type: CustomFieldType; options: string[] | null }, raw: unknown): CustomFieldValue | null {
  if (raw === undefined || raw === null) return null;
  if (field.type === 'secret') throw fieldInvalid('default', 'a secret has no default');
  const checked = checkValue(field, raw);
  if (!checked.ok) throw fieldInvalid('default', checked.reason);
  return checked.value;
}

/** The default kept across a change that did not name it: dropped when the field as it becomes refuses it. */
function keptDefault(field: { type: CustomFieldType; options: string[] | null }, value: CustomFieldValue | null): CustomFieldValue | null {
  if (value === null || field.type === 'secret') return null;
  return checkValue(field, value).ok ? value : null;
}

/** A collector's trimmed stdout as a value of the type, before the type's check. */
function collected(type: CustomFieldType, text: string): unknown {
  switch (type) {
    case 'number':
      return /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : text;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    case 'multiselect':
      return text === '' ? [] : text.split(',').map((s) => s.trim());
    case 'text':
    case 'secret':
    case 'date':
    case 'select':
      return text;
  }
}

const nameTaken = (scope: CustomFieldScope, name: string): DomainError =>
  new DomainError(CustomFieldsErrorCode.NameTaken, `a ${scope} field named "${name}" already exists`, [{ field: 'name', message: 'already exists' }]);

/** A definition as the audit log keeps it (its default masked for a secret: it has none). */
const definitionAudit = (f: CustomFieldEntity): Record<string, unknown> => ({
  id: f.id,
  name: f.name,
  label: f.label,
  scope: f.scope,
  type: f.type,
  options: f.options,
  default: f.defaultValue,
  required: f.required,
});
