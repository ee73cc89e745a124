import { DomainError } from '../common/errors/domain-error';
import type { ConfigError } from '../config/app-config';
import { AUDITED_COMMANDS, CliIo, describeRefusal, invocation, recordCommand } from './commands';

/**
 * `npm run cli -- <command>`: operator commands on the server's database (embedded or DATABASE_URL). Only the
 * command line's reader is loaded up front; the configuration, the database and Nest with the server's modules are
 * required once the command line is known to be a command (a deferred `require`: this file is CommonJS, where
 * `await import()` of our own files would go through the ESM loader), so a usage error or --help answers at once.
 */
export async function runCli(argv: string[], io: CliIo, env = process.env): Promise<number> {
  // The command line is read first: a usage error is exit code 2 even when the configuration or database is wrong.
  const call = invocation(argv);
  if ('text' in call) {
    io.err(call.text);
    return call.code;
  }
  const { loadConfig } = require('../config/app-config') as typeof import('../config/app-config');
  let config;
  try {
    config = loadConfig(env);
  } catch (err) {
    io.err(`rmm-cli: invalid configuration: ${(err as ConfigError).message}`);
    return 1;
  }
  const { openDatabase } = require('../database/database') as typeof import('../database/database');
  let db;
  try {
    // Uses the server's embedded PostgreSQL when it is running, else starts it for this command.
    db = await openDatabase(config, { attachToRunning: true });
  } catch (err) {
    io.err(`rmm-cli: ${(err as Error).message.split('\n')[0]}`);
    return 1;
  }
  require('reflect-metadata');
  const { NestFactory } = require('@nestjs/core') as typeof import('@nestjs/core');
  const { CliModule } = require('./cli.module') as typeof import('./cli.module');
  const services = require('./cli-services') as typeof import('./cli-services');
  const ctx = await NestFactory.createApplicationContext(CliModule.forRoot(config, db.url), { logger: false, abortOnError: false });
  let failure: unknown;
  try {
    await call.run(ctx, io, services);
    return 0;
  } catch (err) {
    // What the operator reads is what the audit log keeps.
    failure = err instanceof DomainError ? new Error(describeRefusal(err)) : err;
    io.err(`rmm-cli: ${(failure as Error).message ?? String(failure)}`);
    return 1;
  } finally {
    if (AUDITED_COMMANDS.has(call.name)) await recordCommand(ctx, services, call.name, call.args, failure, io);
    await ctx.close();
    await db.stop();
  }
}

/**
 * A secret from the operator: standard input's first line when it is a pipe or a file (`printf %s "$PW" | npm run
 * cli -- operator create …`), else asked for at the terminal without echo, twice when `confirm`.
 */
export async function readSecret(prompt: string, confirm: boolean): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size > 64 * 1024) break; // a password is one line: the rest is not read
    }
    return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0];
  }
  const first = await askHidden(prompt);
  if (confirm && (await askHidden('again: ')) !== first) throw new Error('the two passwords differ');
  return first;
}

function askHidden(prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    process.stderr.write(prompt);
    stdin.setRawMode(true);
    stdin.resume();
    let value = '';
    const done = (err?: Error): void => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (data: Buffer): void => {
      for (const ch of data.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003') return done(new Error('cancelled'));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

if (require.main === module) {
  void runCli(process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    outIsTerminal: process.stdout.isTTY === true,
    readSecret,
  }).then((code) => process.exit(code));
}
