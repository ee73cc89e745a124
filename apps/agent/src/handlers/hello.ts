import { Handler, handler } from './handler';

/** hello: the server greets the connection; the connection starts its heartbeats (channel.ts). */
export const hello = (): Handler<'hello'> =>
  handler({
    type: 'hello',
    handle: (message, connection) => connection.greet(message),
  });
