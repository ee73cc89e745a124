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
}
