import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const REDACTED = '[REDACTED]';
/** Each secret, and its JSON-escaped form when that differs (computed once, not per line: this runs for every line). */
const secrets = new Map<string, string | undefined>();

/**
 * Registers values that must never reach a log line (API keys, service-role key, JWT secret,
 * agent secrets). Every line is scrubbed of them just before it is written, whatever logged it.
 */
export function registerSecret(value: string | undefined | null): void {
  if (!value || value.length < 8 || secrets.has(value)) return;
  const escaped = JSON.stringify(value).slice(1, -1);
  secrets.set(value, escaped !== value ? escaped : undefined);
}

export function scrubSecrets(line: string): string {
  let out = line;
  for (const [s, escaped] of secrets) {
    if (out.includes(s)) out = out.split(s).join(REDACTED);
    if (escaped !== undefined && out.includes(escaped)) out = out.split(escaped).join(REDACTED);
  }
  return out;
}

/** Headers that carry credentials: never logged even if a future serializer includes headers. */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.apikey',
  'req.headers["x-api-key"]',
  'headers.authorization',
  'headers.apikey',
  'headers["x-api-key"]',
  'password',
  '*.password',
];

/**
 * Where log lines go when no destination is given: JSON lines on stdout, or, for a person at a terminal
 * (`LOG_FORMAT=pretty`, the default when stdout is a TTY), pino-pretty's readable lines.
 */
export function defaultDestination(format: 'json' | 'pretty' | undefined): pino.DestinationStream {
  const pretty = format === 'pretty' || (format === undefined && process.stdout.isTTY === true);
  // JSON lines are written asynchronously (a request never waits on stdout; lines written while a write is
  // in flight go out together); pino flushes what is pending synchronously when the process exits.
  if (!pretty) return pino.destination({ dest: 1, sync: false });
  const pinoPretty = require('pino-pretty') as (o: Record<string, unknown>) => pino.DestinationStream;
  return pinoPretty({ colorize: process.stdout.isTTY === true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,service', singleLine: true, sync: true });
}

/** One logger for the whole process: Fastify's request logs and Nest's application logs. */
export function createLogger(level: LogLevel, destination?: pino.DestinationStream, format?: 'json' | 'pretty'): Logger {
  return pino(
    {
      level,
      base: { service: 'rmm-server' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      formatters: { level: (label) => ({ level: label }) },
      hooks: { streamWrite: scrubSecrets },
    },
    destination ?? defaultDestination(format),
  );
}

const QUIET_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication', 'WebSocketsController']);

/** Nest's LoggerService on top of the pino logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    // Nest's start-up inventory (modules, routes) is noise at info level.
    this.write(context && QUIET_CONTEXTS.has(context) ? 'debug' : 'info', message, context);
  }
  /** Nest calls error(message, context) or error(message, stack, context). */
  error(message: unknown, ...rest: unknown[]): void {
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    const trace = rest.length > 1 && typeof rest[0] === 'string' ? rest[0] : undefined;
    if (typeof message === 'object' && message !== null) this.logger.error({ context, trace, ...message });
    else this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: string): void {
    this.write('trace', message, context);
  }
  fatal(message: unknown, context?: string): void {
    this.write('fatal', message, context);
  }

  private write(level: 'info' | 'warn' | 'debug' | 'trace' | 'fatal', message: unknown, context?: string): void {
    if (typeof message === 'object' && message !== null) this.logger[level]({ context, ...message });
    else this.logger[level]({ context }, String(message));
  }
}

/** The fields of the access log's line (one per request). */
export interface RequestLine {
  reqId: string;
  method: string;
  path: string;
  status: number;
  ms: number;
}

type PinoInternals = Record<symbol, unknown>;

/**
 * The access log's writer: the very line `logger.info({ reqId, method, path, status, ms }, 'request')` writes
 * (the logger's own level label, time, bindings and end; scrubbed of secrets), without the per-call work pino does
 * for arbitrary objects (the wildcard redaction of `*.password` serialising each field through its censor,
 * serializer lookups): these five fields are never objects. It was the largest of our own per-request costs in the
 * profile of the agent routes (docs/performance.md). Falls back to `logger.info` where the line's parts cannot be
 * taken from the logger (a mixin, a stream that wants pino's metadata, such as pino-pretty's). Undefined when the
 * logger does not write info lines.
 */
export function requestLineWriter(logger: Logger): ((line: RequestLine) => void) | undefined {
  if (!logger.isLevelEnabled('info')) return undefined;
  const s = pino.symbols;
  const p = logger as unknown as PinoInternals;
  const stream = p[s.streamSym] as (pino.DestinationStream & PinoInternals) | undefined;
  const label = (p[s.lsCacheSym] as Record<number, string> | undefined)?.[logger.levels.values.info];
  const time = p[s.timeSym] as (() => string) | undefined;
  const end = p[s.endSym] as string | undefined;
  const chindings = p[s.chindingsSym] as string | undefined;
  const hook = p[Symbol.for('pino.hooks')] as { streamWrite?: (s: string) => string } | undefined; // (pino's hooksSym)
  const messageKey = p[s.messageKeySym];
  const usable = stream && typeof stream.write === 'function' && stream[s.needsMetadataGsym] !== true && !p[s.mixinSym] && label && time && end !== undefined && chindings !== undefined && messageKey === 'msg';
  if (!usable) return (l) => logger.info({ reqId: l.reqId, method: l.method, path: l.path, status: l.status, ms: l.ms }, 'request');
  const scrub = hook?.streamWrite ?? ((x: string) => x);
  return (l) => {
    const line = `${label}${time()}${chindings},"reqId":${JSON.stringify(l.reqId)},"method":${JSON.stringify(l.method)},"path":${JSON.stringify(l.path)},"status":${num(l.status)},"ms":${num(l.ms)},"msg":"request"${end}`;
    stream.write(scrub(line));
  };
}

const num = (n: number): string => (Number.isFinite(n) ? String(n) : 'null');

