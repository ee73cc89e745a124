import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { DomainError } from '../common/errors/domain-error';
import { ConfigError, loadConfig } from '../config/app-config';
import { openDatabase } from '../database/database';
import { CliModule } from './cli.module';
import { AUDITED_COMMANDS, CliIo, describeRefusal, invocation, recordCommand } from './commands';

/** `npm run cli -- <command>`: operator commands on the server's database (embedded or DATABASE_URL). */
export async function runCli(argv: string[], io: CliIo, env = process.env): Promise<number> {
  // The command line is read first: a usage error is exit code 2 even when the configuration or database is wrong.
  const call = invocation(argv);
  if ('text' in call) {
    io.err(call.text);
    return call.code;
  }
  let config;
  try {
    config = loadConfig(env);
  } catch (err) {
    io.err(`rmm-cli: invalid configuration: ${(err as ConfigError).message}`);
    return 1;
  }
  let db;
  try {
    // Uses the server's embedded PostgreSQL when it is running, else starts it for this command.
    db = await openDatabase(config, { attachToRunning: true });
  } catch (err) {
    io.err(`rmm-cli: ${(err as Error).message.split('\n')[0]}`);
    return 1;
  }
  const ctx = await NestFactory.createApplicationContext(CliModule.forRoot(config, db.url), { logger: false, abortOnError: false });
  let failure: unknown;
  try {
    await call.run(ctx, io);
    return 0;
  } catch (err) {
    // What the operator reads is what the audit log keeps.
    failure = err instanceof DomainError ? new Error(describeRefusal(err)) : err;
    io.err(`rmm-cli: ${(failure as Error).message ?? String(failure)}`);
    return 1;
  } finally {
    if (AUDITED_COMMANDS.has(call.name)) await recordCommand(ctx, call.name, call.args, failure, io);
    await ctx.close();
    await db.stop();
  }
}

if (require.main === module) {
  void runCli(process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    outIsTerminal: process.stdout.isTTY === true,
  }).then((code) => process.exit(code));
}
