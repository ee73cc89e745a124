import type { MigrationInterface } from 'typeorm';
import { InitialSchema1763800000000 } from './1763800000000-initial-schema';
import { DataPlatform1763810000000 } from './1763810000000-data-platform';
import { BoundedInputs1763900000000 } from './1763900000000-bounded-inputs';
import { AuditLog1763900100000 } from './1763900100000-audit-log';
import { ScriptRuns1763900200000 } from './1763900200000-script-runs';
import { Monitoring1763900300000 } from './1763900300000-monitoring';
import { EnrollmentProof1763900418300 } from './1763900418300-enrollment-proof';
import { RunErrors1764000500000 } from './1764000500000-run-errors';
import { ConnectionEpoch1764100000000 } from './1764100000000-connection-epoch';
import { AgentOsHostname1764200000000 } from './1764200000000-agent-os-hostname';
import { Operators1764300000000 } from './1764300000000-operators';
import { AgentUpdates1764400000000 } from './1764400000000-agent-updates';
import { RunQueue1764500000000 } from './1764500000000-run-queue';
import { Notifications1764600000000 } from './1764600000000-notifications';
import { JobStates1764700000000 } from './1764700000000-job-states';
import { NotificationPages1764800000000 } from './1764800000000-notification-pages';
import { CheckEnabled1764812900000 } from './1764812900000-check-enabled';
import { ReenrollAllowance1764831000000 } from './1764831000000-reenroll-allowance';
import { NotificationCircuit1764850300000 } from './1764850300000-notification-circuit';
import { UpdateRolloutHalts1764900000000 } from './1764900000000-update-rollout-halts';
import { AgentFloods1764900300000 } from './1764900300000-agent-floods';
import { Policies1765000000000 } from './1765000000000-policies';
import { AuditChanges1765000000900 } from './1765000000900-audit-changes';
import { CustomFields1765000100000 } from './1765000100000-custom-fields';
import { Sessions1765100000000 } from './1765100000000-sessions';
import { TerminalRecordings1765100500000 } from './1765100500000-terminal-recordings';
import { TerminalHeldUntil1765100600000 } from './1765100600000-terminal-held-until';
import { Sso1765200000000 } from './1765200000000-sso';

/** Every migration, in order. A new migration is added here as well as in this folder. */
export const ALL_MIGRATIONS: Array<new () => MigrationInterface> = [
  InitialSchema1763800000000,
  DataPlatform1763810000000,
  BoundedInputs1763900000000,
  AuditLog1763900100000,
  ScriptRuns1763900200000,
  Monitoring1763900300000,
  EnrollmentProof1763900418300,
  RunErrors1764000500000,
  ConnectionEpoch1764100000000,
  AgentOsHostname1764200000000,
  Operators1764300000000,
  AgentUpdates1764400000000,
  RunQueue1764500000000,
  Notifications1764600000000,
  JobStates1764700000000,
  NotificationPages1764800000000,
  CheckEnabled1764812900000,
  ReenrollAllowance1764831000000,
  NotificationCircuit1764850300000,
  UpdateRolloutHalts1764900000000,
  AgentFloods1764900300000,
  Policies1765000000000,
  AuditChanges1765000000900,
  CustomFields1765000100000,
  Sessions1765100000000,
  TerminalRecordings1765100500000,
  TerminalHeldUntil1765100600000,
  Sso1765200000000,
];
