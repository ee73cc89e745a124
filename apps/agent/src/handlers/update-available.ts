import { Handler, HandlerDeps, handler } from './handler';

/** update.available: a new version for this agent's target (update.ts, when this process updates itself). */
export const updateAvailable = ({ log, hooks, sendCurrent }: HandlerDeps): Handler<'update.available'> =>
  handler({
    type: 'update.available',
    handle(msg) {
      if (hooks.onUpdateAvailable) hooks.onUpdateAvailable(msg, sendCurrent);
      else log('ignored update.available: this process does not update itself');
    },
  });
