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
