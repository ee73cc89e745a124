import { Handler, HandlerDeps, handler } from './handler';

/** error: the server refused a message of this agent (a bug here): logged; never answered. */
export const serverError = ({ log }: HandlerDeps): Handler<'error'> =>
  handler({
    type: 'error',
    handle: (message) => log(`the server says: ${message.message}`),
  });
