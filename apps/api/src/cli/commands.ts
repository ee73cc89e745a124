import { INestApplicationContext } from '@nestjs/common';
import { hostname, userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { Clock } from '../common/clock';
import { invalid } from '../common/errors/domain-error';
import { RuntimeConfig } from '../config/runtime-config';
import { UsersService } from '../platform/users/users.service';
import { ApiKeysService, normaliseScopes } from '../rmm/api-keys/api-keys.service';
import { cliOutcome, cliTarget } from '../rmm/audit/audit-entry';
import { AuditService } from '../rmm/audit/audit.service';
import { ClientsService } from '../rmm/clients/clients.service';
import { iso, parseId } from '../common/values';

export interface CliIo {
  /** Results meant for scripts (a new key's secret, tables). */
  out(line: string): void;
  /** Everything else (confirmations, hints). */
  err(line: string): void;
}

export const USAGE = `usage: npm run cli -- <command>

  apikey create --name N --scopes S[,S...] [--expires-in 30d]   create a management API key (prints the secret once)
  apikey list                                                  list keys (never their secrets)
  apikey revoke ID                                             revoke a key
  user create --email E --password P [--client ID --site ID]   create a data-platform user and profile
  client create --name N                                       create a client
  site create --client ID --name N                             create a site under a client
  keys show                                                    print the generated data-platform and function keys`;

export class UsageError extends Error {}

type Handler = (ctx: INestApplicationContext, args: string[], io: CliIo) => Promise<void>;

export const COMMANDS: Record<string, Handler> = {
  'apikey create': async (ctx, args, io) => {
    const { values } = parse(args, { name: { type: 'string' }, scopes: { type: 'string' }, 'expires-in': { type: 'string' } });
    const name = required(values.name, '--name');
    const scopes = normaliseScopes(required(values.scopes, '--scopes').split(','));
    const expiresIn = values['expires-in'] as string | undefined;
    const { key, secret } = await ctx.get(ApiKeysService).create({ name, scopes, expiresIn });
    io.err(`created API key ${key.id} "${key.name}" (${key.scopes.join(',')})${key.expiresAt ? `, expires ${key.expiresAt.toISOString()}` : ''}; the secret below is shown only this once:`);
    io.out(secret);
  },
  'apikey list': async (ctx, args, io) => {
    parse(args, {});
    const keys = await ctx.get(ApiKeysService).list();
    io.out(['ID', 'NAME', 'PREFIX', 'SCOPES', 'EXPIRES', 'REVOKED', 'LAST USED'].join('\t'));
    for (const k of keys) {
      io.out(
        [k.id, k.name, `${k.prefix}…`, k.scopes.join(','), when(k.expiresAt), when(k.revokedAt), when(k.lastUsedAt)].join('\t'),
      );
    }
  },
  'apikey revoke': async (ctx, args, io) => {
    const { positionals } = parse(args, {}, true);
    const key = await ctx.get(ApiKeysService).revoke(id(positionals[0], 'ID'));
    io.err(`revoked API key ${key.id} "${key.name}" at ${when(key.revokedAt)}`);
  },
  'user create': async (ctx, args, io) => {
    const { values } = parse(args, { email: { type: 'string' }, password: { type: 'string' }, client: { type: 'string' }, site: { type: 'string' } });
    const clientId = values.client === undefined ? null : id(values.client as string, '--client');
    const siteId = values.site === undefined ? null : id(values.site as string, '--site');
    const { user } = await ctx.get(UsersService).create({
      email: required(values.email, '--email'),
      password: required(values.password, '--password'),
      clientId,
      siteId,
    });
    io.out(user.id);
    io.err(`created user ${user.email}${clientId ? ` for client ${clientId}` : ''}${siteId ? `, site ${siteId}` : ''}`);
  },
  'client create': async (ctx, args, io) => {
    const { values } = parse(args, { name: { type: 'string' } });
    const client = await ctx.get(ClientsService).createClient(required(values.name, '--name'));
    io.out(String(client.id));
    io.err(`created client ${client.id} "${client.name}"`);
  },
  'site create': async (ctx, args, io) => {
    const { values } = parse(args, { client: { type: 'string' }, name: { type: 'string' } });
    const site = await ctx.get(ClientsService).createSite(id(required(values.client, '--client'), '--client'), required(values.name, '--name'));
    io.out(String(site.id));
    io.err(`created site ${site.id} "${site.name}" under client ${site.clientId}`);
  },
  'keys show': async (ctx, args, io) => {
    parse(args, {});
    const r = ctx.get(RuntimeConfig);
    const shown: Array<[string, string]> = [
      ['DATA_ANON_KEY', r.dataAnonKey],
      ['DATA_SERVICE_ROLE_KEY', r.dataServiceRoleKey],
      ['JWT_SECRET', r.jwtSecret],
      ['RMM_API_KEY', r.rmmApiKey],
    ];
    for (const [name, value] of shown) {
      // A value the operator gave in the environment is theirs already: never print it back.
      io.out(r.generated.includes(name) ? `${name}=${value}` : `${name}=(set in the environment, not shown)`);
    }
    io.out(`RMM_DEFAULT_CLIENT_ID=${r.rmmDefaultClientId}`);
    io.out(`RMM_DEFAULT_SITE_ID=${r.rmmDefaultSiteId}`);
  },
};

/** Commands that change something: every run is written to the audit log, whatever its outcome. */
export const AUDITED_COMMANDS: ReadonlySet<string> = new Set(['apikey create', 'apikey revoke', 'user create', 'client create', 'site create']);

/**
 * The audit row of a command: actor `cli` and the operating-system user, the command, its arguments without
 * secrets (never a password), `ok` or `error: <message>`. A failure to write it is a warning, not a failure.
 */
export async function recordCommand(ctx: INestApplicationContext, command: string, args: string[], error: unknown, io: CliIo): Promise<void> {
  try {
    await ctx.get(AuditService).recordNow({
      at: ctx.get(Clock).now(),
      actorKind: 'cli',
      actorId: null,
      actorName: osUser(),
      method: null,
      action: command,
      target: cliTarget(args),
      clientAddress: hostname(),
      status: null,
      outcome: cliOutcome(args, error),
      requestId: null,
    });
  } catch (err) {
    io.err(`rmm-cli: warning: the audit log did not record this command: ${(err as Error).message}`);
  }
}

function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? `uid ${process.getuid?.() ?? '?'}`; // no passwd entry (a container's arbitrary uid)
  }
}

function parse(args: string[], options: Record<string, { type: 'string' }>, allowPositionals = false) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

function required(value: unknown, flag: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`${flag} is required`);
  return value;
}

function id(value: string | undefined, what: string): number {
  if (value === undefined) throw new UsageError(`${what} is required`);
  const n = parseId(value);
  if (n === null) throw invalid(`${what} must be a positive whole number, got "${value}"`);
  return n;
}

const when = (d: Date | null): string => iso(d) ?? '-';
