import { Handler, HandlerDeps, handler } from './handler';

/** agent.uninstall: the operator deleted this agent with ?uninstall=true (main.ts removes the service and the files). */
export const agentUninstall = ({ log, hooks }: HandlerDeps): Handler<'agent.uninstall'> =>
  handler({
    type: 'agent.uninstall',
    handle() {
      if (hooks.onUninstall) hooks.onUninstall();
      else log('ignored agent.uninstall');
    },
  });
