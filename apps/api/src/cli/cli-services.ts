/**
 * What the commands take from their context once the database is open. Required by cli.ts only then, never
 * by commands.ts (which imports its types only): reading a command line, a usage error and --help
 * load none of the server's modules (each CLI start cost about a second of CPU before, whatever the command).
 */
export { Clock } from '../common/clock';
export { RuntimeConfig } from '../config/runtime-config';
export { UsersService } from '../platform/users/users.service';
export { ApiKeysService } from '../rmm/access/api-keys/api-keys.service';
export { AuditService } from '../rmm/access/audit/audit.service';
export { OperatorsService } from '../rmm/access/operators/operators.service';
export { EVERY_CLIENT } from '../rmm/common/client-scope';
export { AgentSigningKey } from '../rmm/fleet/agent-binaries/signing-key';
export { ClientsService } from '../rmm/tenancy/clients/clients.service';
