import { CheckScheduler, validDefinitions } from '../checks';
import { Connection, Handler, HandlerDeps, handler } from './handler';

/**
 * checks.sync: the agent's whole list of checks (checks.ts runs them). Results go on the connection the list came
 * on; the checks stop with it (the server sends the list again at the next connect, so each runs at once).
 */
export const checksSync = ({ log }: HandlerDeps): Handler<'checks.sync'> => {
  let connection: Connection | undefined;
  const checks = new CheckScheduler((result) => connection?.send(result), { log });
  return handler({
    type: 'checks.sync',
    handle(msg, from) {
      connection = from;
      checks.sync(validDefinitions(msg.checks));
    },
    disconnected() {
      checks.stopAll();
      connection = undefined;
    },
    stop: () => checks.stopAll(),
  });
};
