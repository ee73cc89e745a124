import type { INestApplicationContext } from '@nestjs/common';
import type { OperatorEntity } from '@app/entities';
import { OPERATOR_ROLES, type OperatorRole } from '@app/entities/enums';
import { hostname, userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { CommonErrorCode, DomainError, invalid, notFound } from '../common/errors/domain-error';
import { parseDuration } from '../rmm/access/api-keys/key-expiry';
import { cliOutcome, cliTarget } from '../rmm/access/audit/audit-entry';
import { iso, parseId } from '../common/values';
// Types only: the services are loaded once a command's arguments are read and the database is open (cli.ts), so a
// usage error or --help loads none of the server's modules.
import type * as CliServices from './cli-services';
import type { ClientsService, OperatorsService } from './cli-services';

export interface CliIo {
  /** Results meant for scripts (a new key's secret, tables). */
  out(line: string): void;
  /** Everything else (confirmations, hints). */
  err(line: string): void;
  /** Whether `out` is a terminal (the operator reads it there), not a pipe or a file. */
  outIsTerminal?: boolean;
  /**
   * A secret the operator types (a password): the first line of standard input when it is not a terminal, else
   * asked for at the terminal without echo (twice, to confirm, when `confirm`). Never an argument: a command
   * line is visible to every user of the machine (ps) and kept in shell histories.
   */
  readSecret?(prompt: string, confirm: boolean): Promise<string>;
}

export class UsageError extends Error {}

/** The services a command asks its context for (cli-services.ts, loaded when a command runs). */
export type Services = typeof CliServices;

/** A command whose arguments have been read: what remains needs the database (and the services, given as `s`). */
type Run = (ctx: INestApplicationContext, io: CliIo, s: Services) => Promise<void>;

interface Command {
  /** The command line, as the usage text shows it. */
  synopsis: string;
  does: string;
  /** Reads the arguments (UsageError when they are wrong), before any configuration or database is touched. */
  prepare(args: string[]): Run;
}

export const COMMANDS: Record<string, Command> = {
  'apikey create': {
    synopsis: 'apikey create --name N --scopes S[,S...] [--clients ID[,ID...]] [--expires-in 30d]',
    does: 'create a management API key (prints the secret once); --clients limits it to those clients',
    prepare: (args) => {
      const { values } = parse(args, { name: { type: 'string' }, scopes: { type: 'string' }, clients: { type: 'string' }, 'expires-in': { type: 'string' } });
      const name = required(values.name, '--name');
      const scopes = scopeList(required(values.scopes, '--scopes'));
      const clients = values.clients === undefined ? null : idList(values.clients as string, '--clients');
      const expiresIn = values['expires-in'] === undefined ? undefined : duration(values['expires-in'] as string, '--expires-in');
      return async (ctx, io, s) => {
        const { key, secret } = await ctx.get(s.ApiKeysService).create({ name, scopes, clients, expiresIn });
        const expiry = key.expiresAt ? `, expires ${key.expiresAt.toISOString()}` : '';
        const limit = key.clients ? `, clients ${key.clients.join(',')} only` : '';
        // At a terminal the secret is the next line; in a pipe it goes where stdout goes, not "below".
        const where = io.outIsTerminal ? 'the secret below is shown only this once:' : 'the secret is printed on standard output, shown only this once';
        io.err(`created API key ${key.id} "${key.name}" (${key.scopes.join(',')})${limit}${expiry}; ${where}`);
        io.out(secret);
      };
    },
  },
  'apikey list': {
    synopsis: 'apikey list',
    does: 'list keys (never their secrets) with the clients each is limited to (all: none)',
    prepare: (args) => {
      parse(args, {});
      return async (ctx, io, s) => {
        const keys = await ctx.get(s.ApiKeysService).list();
        io.out(['ID', 'NAME', 'PREFIX', 'SCOPES', 'CLIENTS', 'EXPIRES', 'REVOKED', 'LAST USED'].join('\t'));
        for (const k of keys) {
          io.out([k.id, k.name, `${k.prefix}…`, k.scopes.join(','), k.clients?.join(',') ?? 'all', when(k.expiresAt), when(k.revokedAt), when(k.lastUsedAt)].join('\t'));
        }
      };
    },
  },
  'apikey revoke': {
    synopsis: 'apikey revoke ID',
    does: 'revoke a key',
    prepare: (args) => {
      const { positionals } = parse(args, {}, 1);
      const keyId = id(positionals[0], 'ID');
      return async (ctx, io, s) => {
        const key = await ctx.get(s.ApiKeysService).revoke(keyId).catch((err: unknown) => {
          throw isNotFound(err) ? notFound(`no API key ${keyId}`) : err;
        });
        io.err(`revoked API key ${key.id} "${key.name}" at ${when(key.revokedAt)}`);
      };
    },
  },
  'user create': {
    synopsis: 'user create --email E --password P [--client ID] [--site ID]',
    does: 'create a data-platform user and profile (no ids: the default tenant)',
    prepare: (args) => {
      const { values } = parse(args, { email: { type: 'string' }, password: { type: 'string' }, client: { type: 'string' }, site: { type: 'string' } });
      const email = required(values.email, '--email');
      const password = required(values.password, '--password');
      const clientId = values.client === undefined ? null : id(values.client as string, '--client');
      const siteId = values.site === undefined ? null : id(values.site as string, '--site');
      return async (ctx, io, s) => {
        const r = ctx.get(s.RuntimeConfig);
        if (clientId !== null || siteId !== null) {
          if (r.rmmApiUrl === undefined) {
            await checkTenant(ctx.get(s.ClientsService), s, { clientId, siteId }, { clientId: r.rmmDefaultClientId, siteId: r.rmmDefaultSiteId });
          } else {
            io.err(`rmm-cli: note: the enrollment function uses the backend at RMM_API_URL; --client and --site are not checked against this server`);
          }
        }
        const { user } = await ctx.get(s.UsersService).create({ email, password, clientId, siteId });
        io.out(user.id);
        io.err(`created user ${user.email}${clientId ? ` for client ${clientId}` : ''}${siteId ? `, site ${siteId}` : ''}`);
      };
    },
  },
  'client create': {
    synopsis: 'client create --name N',
    does: 'create a client',
    prepare: (args) => {
      const { values } = parse(args, { name: { type: 'string' } });
      const name = required(values.name, '--name');
      return async (ctx, io, s) => {
        const client = await ctx.get(s.ClientsService).createClient(name);
        io.out(String(client.id));
        io.err(`created client ${client.id} "${client.name}"`);
      };
    },
  },
  'site create': {
    synopsis: 'site create --client ID --name N',
    does: 'create a site under a client',
    prepare: (args) => {
      const { values } = parse(args, { client: { type: 'string' }, name: { type: 'string' } });
      const clientId = id(required(values.client, '--client'), '--client');
      const name = required(values.name, '--name');
      return async (ctx, io, s) => {
        const clients = ctx.get(s.ClientsService);
        if (!(await clients.exists(clientId))) throw notFound(`no client ${clientId}`);
        const site = await clients.createSite(clientId, name, s.EVERY_CLIENT);
        io.out(String(site.id));
        io.err(`created site ${site.id} "${site.name}" under client ${site.clientId}`);
      };
    },
  },
  'keys show': {
    synopsis: 'keys show',
    does: "print the generated data-platform and function keys, the default tenant, and the agent update signing key's public half",
    prepare: (args) => {
      parse(args, {});
      return async (ctx, io, s) => {
        const r = ctx.get(s.RuntimeConfig);
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
        // The public half only (never the private seed): what the installers write into each agent as update_key.
        io.out(`RMM_AGENT_SIGNING_PUBLIC_KEY=${new s.AgentSigningKey(r).publicKeyBase64}`);
      };
    },
  },
  'operator create': {
    synopsis: 'operator create --email E --role admin|technician|viewer [--clients ID[,ID...]] [--break-glass]',
    does: 'create a console operator (password from standard input, or asked for at a terminal); --break-glass: may sign in with the password even when RMM_PASSWORD_LOGIN=false',
    prepare: (args) => {
      const { values } = parse(args, { email: { type: 'string' }, role: { type: 'string' }, clients: { type: 'string' }, 'break-glass': { type: 'boolean' } });
      const breakGlass = values['break-glass'] === true;
      const email = required(values.email, '--email');
      const role = roleOf(required(values.role, '--role'));
      const clients = values.clients === undefined ? null : idList(values.clients as string, '--clients');
      return async (ctx, io, s) => {
        const password = await secret(io, `password for ${email}: `, true);
        const op = await ctx.get(s.OperatorsService).create({ email, password, role, clients, breakGlass });
        io.out(String(op.id));
        io.err(`created operator ${op.id} ${op.email} (${op.role}${op.clients ? `, clients ${op.clients.join(',')}` : ', every client'}${op.breakGlass ? ', break-glass' : ''})`);
      };
    },
  },
  'operator list': {
    synopsis: 'operator list',
    does: 'list console operators',
    prepare: (args) => {
      parse(args, {});
      return async (ctx, io, s) => {
        io.out(['ID', 'EMAIL', 'ROLE', 'CLIENTS', 'TOTP', 'DISABLED', 'BREAK_GLASS', 'SSO', 'CREATED'].join('\t'));
        for (const o of await ctx.get(s.OperatorsService).list()) {
          const sso = o.oidcSubject !== null ? 'linked' : o.oidcLinkAllowed ? 'link allowed' : 'no';
          io.out([o.id, o.email, o.role, o.clients ? o.clients.join(',') : 'all', o.totpSecret ? 'yes' : 'no', o.disabled ? 'yes' : 'no', o.breakGlass ? 'yes' : 'no', sso, when(o.createdAt)].join('\t'));
        }
      };
    },
  },
  'operator disable': operatorCommand('disable', 'disable an operator (their sessions end at once)', async (operators, target, io) => {
    await operators.update(target.id, { disabled: true });
    io.err(`disabled operator ${target.id} ${target.email}; their sessions have ended`);
  }),
  'operator password': operatorCommand('password', "set an operator's password (from standard input, or asked for at a terminal; their sessions end)", async (operators, target, io) => {
    const password = await secret(io, `new password for ${target.email}: `, true);
    await operators.update(target.id, { password });
    io.err(`password of operator ${target.id} ${target.email} changed; their sessions have ended`);
  }),
  'operator link-oidc': operatorCommand('link-oidc', "allow the next single sign-on with this operator's e-mail (verified by the provider) to link that provider account to them, once", async (operators, target, io) => {
    await operators.allowOidcLink(target.id);
    io.err(`operator ${target.id} ${target.email}: the next provider sign-in with this e-mail, if the provider verified it, links that account (once)`);
  }),
  'operator totp': operatorCommand('totp', 'set up TOTP for an operator (prints the otpauth URI and ten recovery codes once)', async (operators, target, io) => {
    const { uri, recoveryCodes } = await operators.enableTotp(target.id);
    io.err(`TOTP set up for operator ${target.id} ${target.email}: scan the URI below into an authenticator app; it and the recovery codes are shown only this once`);
    io.out(uri);
    for (const code of recoveryCodes) io.out(code);
  }),
};

const PROGRAM = 'npm run cli --';
const lines = (names: string[]): string => {
  const width = Math.max(...names.map((n) => COMMANDS[n].synopsis.length));
  return names.map((n) => `  ${COMMANDS[n].synopsis.padEnd(width)}   ${COMMANDS[n].does}`).join('\n');
};

export const USAGE = `usage: ${PROGRAM} <command>\n\n${lines(Object.keys(COMMANDS))}`;

/** The usage of one command group (`apikey`): its commands. Undefined for a word that is no group. */
export function groupUsage(group: string): string | undefined {
  const names = Object.keys(COMMANDS).filter((n) => n.split(' ')[0] === group);
  return names.length === 0 ? undefined : `usage: ${PROGRAM} ${group} <command>\n\n${lines(names)}`;
}

/** What a command line asks for: a command ready to run once the database is open, or a text and an exit code. */
export type Invocation = { name: string; args: string[]; run: Run } | { text: string; code: 0 | 2 };

const isHelp = (a: string | undefined): boolean => a === 'help' || a === '--help' || a === '-h';

/** Reads the command line without touching configuration or database, so usage errors are 2 whatever else is wrong. */
export function invocation(argv: string[]): Invocation {
  const [group, sub] = argv;
  if (group === undefined) return { text: USAGE, code: 2 };
  if (isHelp(group)) return { text: USAGE, code: 0 };
  const usageOfGroup = groupUsage(group);
  if (usageOfGroup === undefined) return { text: `unknown command "${argv.join(' ')}"\n\n${USAGE}`, code: 2 };
  if (sub === undefined) return { text: usageOfGroup, code: 2 };
  if (isHelp(sub)) return { text: usageOfGroup, code: 0 };
  const name = `${group} ${sub}`;
  const command = COMMANDS[name];
  if (!command) return { text: `unknown command "${name}"\n\n${usageOfGroup}`, code: 2 };
  const args = argv.slice(2);
  const usageLine = `usage: ${PROGRAM} ${command.synopsis}`;
  if (args.includes('--help')) return { text: `${usageLine}\n\n${command.does}`, code: 0 };
  try {
    return { name, args, run: command.prepare(args) };
  } catch (err) {
    if (err instanceof UsageError) return { text: `rmm-cli: ${err.message}\n\n${usageLine}`, code: 2 };
    throw err;
  }
}

const isNotFound = (err: unknown): boolean => err instanceof DomainError && err.code === CommonErrorCode.NotFound;

/** How a refusal reads on stderr: what was not found, or which field is wrong and why. */
export function describeRefusal(err: DomainError): string {
  if (err.code === CommonErrorCode.NotFound) return err.message === 'Not found' ? err.message : `Not found: ${err.message}`;
  if (err.fields.length > 0 && err.message === 'validation error') return err.fields.map((f) => `${f.field}: ${f.message}`).join('; ');
  return err.message;
}

/**
 * An operator's --client/--site must make a tenant the enrollment can use, else every enrollment of the
 * user fails with 502 and only the server log says why. A missing id takes the default (as the function
 * does): the site must exist and belong to the client. Only when the function uses this server's backend.
 */
async function checkTenant(
  clients: ClientsService,
  s: Services,
  given: { clientId: number | null; siteId: number | null },
  defaults: { clientId: number; siteId: number },
): Promise<void> {
  if (given.clientId !== null && !(await clients.exists(given.clientId))) throw invalid(`client ${given.clientId} does not exist`);
  const clientId = given.clientId ?? defaults.clientId;
  if (given.siteId !== null) {
    const site = await clients.findSite(given.siteId);
    if (!site) throw invalid(`site ${given.siteId} does not exist`);
    if (site.clientId === clientId) return;
    throw invalid(
      given.clientId === null
        ? `site ${site.id} does not belong to the default client ${clientId}: give --client ${site.clientId}`
        : `site ${site.id} does not belong to client ${clientId} (it is a site of client ${site.clientId})`,
    );
  }
  // --client alone: the enrollment takes the default site, which must be this client's.
  if ((await clients.findSite(defaults.siteId))?.clientId === clientId) return;
  const [sites] = await clients.sitesOf(clientId, { offset: 0 }, s.EVERY_CLIENT);
  if (sites.length === 0) throw invalid(`client ${clientId} has no site: give --site (create one first: site create --client ${clientId} --name N)`);
  throw invalid(`client ${clientId} needs a site: give --site (its sites: ${sites.map((s) => `${s.id} "${s.name}"`).join(', ')})`);
}

/** Commands that change something: every run is written to the audit log, whatever its outcome. */
export const AUDITED_COMMANDS: ReadonlySet<string> = new Set([
  'apikey create',
  'apikey revoke',
  'user create',
  'client create',
  'site create',
  'operator create',
  'operator disable',
  'operator password',
  'operator link-oidc',
  'operator totp',
]);

/**
 * The audit row of a command: actor `cli` and the operating-system user, the command, its arguments without
 * secrets (never a password), `ok` or `error: <message>`. A failure to write it is a warning, not a failure.
 */
export async function recordCommand(ctx: INestApplicationContext, s: Services, command: string, args: string[], error: unknown, io: CliIo): Promise<void> {
  try {
    await ctx.get(s.AuditService).recordNow({
      at: ctx.get(s.Clock).now(),
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

/** Strict flags; `positionals` is how many bare arguments the command takes (more is a usage error). */
function parse(args: string[], options: Record<string, { type: 'string' | 'boolean' }>, positionals = 0) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: positionals > 0, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (parsed.positionals.length > positionals) throw new UsageError(`unexpected argument "${parsed.positionals[positionals]}"`);
  return parsed;
}

/** A comma-separated scope list with no empty entry (`a,,b` is a typo, not two scopes). */
function scopeList(value: string): string[] {
  const scopes = value.split(',').map((s) => s.trim());
  if (scopes.some((s) => s === '')) throw new UsageError(`--scopes has an empty entry in "${value}" (write S[,S...] without empty items)`);
  return scopes;
}

/** A comma-separated list of ids (`1,2`): each a positive whole number, no empty entry. */
function idList(value: string, flag: string): number[] {
  const items = value.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) throw new UsageError(`${flag} has an empty entry in "${value}" (write ID[,ID...] without empty items)`);
  return items.map((item) => id(item, flag));
}

function duration(value: string, flag: string): string {
  try {
    parseDuration(value, flag);
  } catch {
    throw new UsageError(`${flag} must be a positive duration such as 90m, 12h, 30d or 4w, got "${value}"`);
  }
  return value;
}

/** An operator role, checked with the arguments: a wrong one is a usage error, said before any password is asked for. */
function roleOf(value: string): OperatorRole {
  if (!(OPERATOR_ROLES as readonly string[]).includes(value)) throw new UsageError(`--role must be one of ${OPERATOR_ROLES.join(', ')}, got "${value.slice(0, 80)}"`);
  return value as OperatorRole;
}

function required(value: unknown, flag: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`${flag} is required`);
  return value;
}

function id(value: string | undefined, what: string): number {
  if (value === undefined) throw new UsageError(`${what} is required`);
  const n = parseId(value);
  if (n === null) throw new UsageError(`${what} must be a positive whole number, got "${value}"`);
  return n;
}

const when = (d: Date | null): string => iso(d) ?? '-';

/** A comma-separated list of ids (`1,2`). */
/** `operator VERB --email E`: the operator with that email (refused, naming it, when there is none), then `act`. */
function operatorCommand(verb: string, does: string, act: (operators: OperatorsService, target: OperatorEntity, io: CliIo) => Promise<void>): Command {
  return {
    synopsis: `operator ${verb} --email E`,
    does,
    prepare: (args) => {
      const { values } = parse(args, { email: { type: 'string' } });
      const email = required(values.email, '--email');
      return async (ctx, io, s) => {
        const operators = ctx.get(s.OperatorsService);
        await act(operators, await operators.byEmail(email), io);
      };
    },
  };
}

async function secret(io: CliIo, prompt: string, confirm: boolean): Promise<string> {
  if (!io.readSecret) throw new Error('no way to read a password here');
  const value = await io.readSecret(prompt, confirm);
  if (value === '') throw invalid('password: none given (pipe it on standard input, or run at a terminal to be asked)');
  return value;
}
