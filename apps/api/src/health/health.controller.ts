import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { LivenessDto, ReadinessDto } from './health.dto';
import { HealthService } from './health.service';

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** Liveness: the process is up. */
  @Get('healthz')
  @HttpCode(200)
  @ApiOkResponse({ type: LivenessDto })
  liveness(): LivenessDto {
    return { status: 'ok' };
  }

  /** Readiness: the database is reachable (200, else 503); the jobs failing in a row here, named; open files near the limit. */
  @Get('readyz')
  @ApiOkResponse({ type: ReadinessDto })
  @ApiServiceUnavailableResponse({ type: ReadinessDto })
  async readiness(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadinessDto> {
    const up = await this.health.databaseUp();
    reply.code(up ? 200 : 503);
    const degraded = this.health.degradedJobs();
    const files = this.health.openFiles();
    return {
      status: up ? 'ready' : 'unavailable',
      database: up ? 'up' : 'down',
      ...(degraded.length > 0 ? { degraded_jobs: degraded } : {}),
      ...(files ? { open_files: { ...files, agent_connections: 'refused (1013 try again later): open files within the head-room of the limit' as const } } : {}),
    };
  }
}
