/** What a script run can be refused with (rmm-error.surface.ts gives each its status). */
export enum ScriptRunsErrorCode {
  /** Only a queued run can be cancelled: this one has started, or ended. */
  NotQueued = 'run_not_queued',
  /** The agent has RMM_QUEUE_MAX_PER_AGENT runs, or QUEUE_MAX_BYTES_PER_AGENT of bodies, queued already. */
  QueueFull = 'run_queue_full',
  /** A collector run's output is not a value its custom field takes: the run is failed with the reason. */
  CollectedRefused = 'run_collected_refused',
}
