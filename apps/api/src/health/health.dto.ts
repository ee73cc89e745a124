export class LivenessDto {
  /** Always "ok" while the process serves requests. */
  status: 'ok';
}

export class ReadinessDto {
  /** "ready" when every dependency answers, else "unavailable" (with status 503). */
  status: 'ready' | 'unavailable';
  database: 'up' | 'down';
  /**
   * This instance's periodic jobs that failed 3 times or more in a row (GET /api/v3/system/jobs/ says why); present
   * only when there is one. A detail: it does not change the status code, which says whether the database answers.
   */
  degraded_jobs?: string[];
  /**
   * Present only while this instance refuses new agent connections because its open files are within RMM_FD_HEADROOM
   * of its open-file limit (the soft RLIMIT_NOFILE read at start): the figures. A detail: the API still answers, and
   * the status code does not change.
   */
  open_files?: OpenFilesDto;
}

export class OpenFilesDto {
  /** Files open now (the last count of /proc/self/fd, plus HTTP connections since). */
  open: number;
  /** The soft open-file limit (`ulimit -n`) read at start. */
  limit: number;
  /** RMM_FD_HEADROOM: files kept free under the limit. */
  headroom: number;
  agent_connections: 'refused (1013 try again later): open files within the head-room of the limit';
}
