import { openFileRead } from '../files/read';
import { openFileWrite } from '../files/write';
import { SessionManager } from '../sessions/manager';
import { openTerminal } from '../sessions/terminal';
import { Handler, HandlerDeps, handler } from './handler';

/**
 * session.open, session.ack, session.control, session.close: the agent's end of sessions (sessions/manager.ts), one
 * manager for the four. The kinds: a terminal (sessions/terminal.ts), a file read and a file write (files/).
 * session.open also takes the server's binary frames (the registry hands them here).
 */
export function sessionHandlers({ log }: HandlerDeps): Handler[] {
  const sessions = new SessionManager({ terminal: openTerminal, 'file.read': openFileRead, 'file.write': openFileWrite }, log);
  const end = (): void => void sessions.closeAll('disconnected');
  return [
    handler({
      type: 'session.open',
      handle: (message, connection) => sessions.open(message, connection),
      binary: (bytes) => sessions.frame(bytes),
      disconnected: end,
      stop: end,
    }),
    handler({ type: 'session.ack', handle: (message) => sessions.ack(message.session, message.seq) }),
    handler({ type: 'session.control', handle: (message) => sessions.control(message.session, message.control) }),
    handler({ type: 'session.close', handle: (message) => sessions.close(message.session, message.reason) }),
  ];
}
