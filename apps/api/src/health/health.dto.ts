export class LivenessDto {
  /** Always "ok" while the process serves requests. */
  status: 'ok';
}

export class ReadinessDto {
  /** "ready" when every dependency answers, else "unavailable" (with status 503). */
  status: 'ready' | 'unavailable';
  database: 'up' | 'down';
}
