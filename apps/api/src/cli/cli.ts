import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { DomainError } from '../common/errors/domain-error';
import { ConfigError, loadConfig } from '../config/app-config';
import { openDatabase } from '../database/database';
import { CliModule } from './cli.module';
import { AUDITED_COMMANDS, CliIo, COMMANDS, recordCommand, USAGE, UsageError } from './commands';

/** `npm run cli -- <command>`: operator commands on the server's database (embedded or DATABASE_URL). */
export async function runCli(argv: string[], io: CliIo, env = process.env): Promise<number> {
  const name = argv.slice(0, 2).join(' ');
  const handler = COMMANDS[name];
  if (!handler) {
    io.err(argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' ? USAGE : `unknown command "${argv.join(' ')}"\n\n${USAGE}`);
    return argv[0] === 'help' || argv[0] === '--help' ? 0 : 2;
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
    await handler(ctx, argv.slice(2), io);
    return 0;
  } catch (err) {
    failure = err;
    if (err instanceof UsageError) {
      io.err(`rmm-cli: ${err.message}\n\n${USAGE}`);
      return 2;
    }
    if (err instanceof DomainError) {
      io.err(`rmm-cli: ${err.message}`);
      return 1;
    }
    io.err(`rmm-cli: ${(err as Error).message ?? String(err)}`);
    return 1;
  } finally {
    if (AUDITED_COMMANDS.has(name)) await recordCommand(ctx, name, argv.slice(2), failure, io);
    await ctx.close();
    await db.stop();
  }
}

if (require.main === module) {
  void runCli(process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  }).then((code) => process.exit(code));
}
