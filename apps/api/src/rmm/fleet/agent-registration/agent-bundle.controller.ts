import { existsSync, readFile } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Controller, Get, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CommonErrorCode, DomainError } from '../../../common/errors/domain-error';
import { RmmErrorDto } from '../../common/rmm-error.dto';

/** The project folder: the nearest one up from here with a package.json (the same from apps/ under ts-jest and from dist/). */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return process.cwd();
  }
}

/** dist/agent/rmm-agent.js, built by `npm run build:agent` (scripts/build-agent.js; `npm start` builds it when stale). */
export const AGENT_BUNDLE = join(projectRoot(__dirname), 'dist', 'agent', 'rmm-agent.js');

/** The reference agent's code, which the installers fetch: no key, the agent's code is not secret. */
@ApiTags('agent')
@Controller('agent/v1')
export class AgentBundleController {
  @Get('rmm-agent.js')
  @ApiOperation({ summary: 'The reference agent, one JavaScript file for Node.js 20+ (no key: the code is not secret); the installers fetch it' })
  @ApiProduces('text/javascript')
  @ApiResponse({ status: 200, description: 'dist/agent/rmm-agent.js' })
  @ApiResponse({ status: 503, type: RmmErrorDto, description: '{detail}: the agent bundle is not built on this server (npm run build:agent)' })
  async bundle(@Res() reply: FastifyReply): Promise<void> {
    let body: Buffer;
    try {
      body = await promisify(readFile)(AGENT_BUNDLE);
    } catch {
      throw new DomainError(CommonErrorCode.Unavailable, 'the agent bundle is not built on this server: run npm run build:agent');
    }
    void reply.code(200).header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(body);
  }
}
