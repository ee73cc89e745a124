// The agent's capabilities: one handler per message type the server sends, each in its own file. A new capability
// is a schema in libs/protocol (SERVER_MESSAGES), a handler here (added to this list) and a section of
// docs/agent-protocol.md; HandlerRegistry refuses to start without a handler for every type of SERVER_MESSAGES.
import { agentUninstall } from './agent-uninstall';
import { checksSync } from './checks-sync';
import { filesHandlers } from './files';
import { Handler, HandlerDeps } from './handler';
import { hello } from './hello';
import { scriptRun } from './script-run';
import { serverError } from './server-error';
import { sessionHandlers } from './sessions';
import { updateAvailable } from './update-available';

export function createHandlers(deps: HandlerDeps): Handler[] {
  return [hello(), serverError(deps), scriptRun(deps), checksSync(deps), updateAvailable(deps), agentUninstall(deps), ...sessionHandlers(deps), ...filesHandlers(deps)];
}
