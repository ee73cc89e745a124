import type { ResultMessage } from '@app/protocol/agent';
import { killAllScripts, Outcome, runScript } from '../run-script';
import { Handler, HandlerDeps, handler } from './handler';

/** The server refuses messages over 1 MiB; keep a margin for the envelope. */
const MAX_MESSAGE = 1024 * 1024 - 4096;

/** The result message, its outputs shortened until it fits in one message. */
export function resultMessage(id: string, outcome: Outcome): string {
  if (!outcome.ok) return JSON.stringify({ type: 'result', id, ok: false, error: outcome.error } satisfies ResultMessage);
  const result = { ...outcome.result };
  for (;;) {
    const text = JSON.stringify({ type: 'result', id, ok: true, result } satisfies ResultMessage);
    if (Buffer.byteLength(text) <= MAX_MESSAGE) return text;
    result.stdout = result.stdout.slice(0, Math.floor(result.stdout.length / 2));
    result.stderr = result.stderr.slice(0, Math.floor(result.stderr.length / 2));
  }
}

/**
 * script.run: runs the script (run-script.ts), its output streamed as it comes (script.output), then answers
 * `result`, all on the connection the command came on: a newer one does not know this request id.
 */
export const scriptRun = ({ log }: HandlerDeps): Handler<'script.run'> =>
  handler({
    type: 'script.run',
    async handle(msg, connection) {
      log(`run ${msg.runId}: ${msg.shell} script, ${msg.args.length} args, time-out ${msg.timeoutSeconds} s`);
      const outcome = await runScript(msg, (c) => connection.send({ type: 'script.output', runId: msg.runId, ...c }));
      log(`run ${msg.runId}: ${outcome.ok ? `retcode ${outcome.result.retcode}${outcome.result.timedOut ? ' (timed out)' : ''}` : outcome.error}`);
      connection.send(resultMessage(msg.id, outcome));
    },
    stop: killAllScripts,
  });
