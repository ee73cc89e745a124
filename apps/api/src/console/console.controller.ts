import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConsoleFiles } from './console-files';

const NOT_BUILT = 'The operator console is not built on this server: run `npm run build` (or `npm start`, which builds it), then reload this page.\n';

/**
 * The operator console (apps/console/, built into dist/console/): `/` redirects to it; `/app/assets/*` are its
 * hashed files, cached for a year; any other `/app/…` path is one of its pages, answered with index.html (never
 * cached: it names the current assets), and the page's own router shows it. Not part of the API document.
 */
@ApiExcludeController()
@Controller()
export class ConsoleController {
  constructor(@Inject(ConsoleFiles) private readonly files: ConsoleFiles) {}

  @Get()
  root(@Res() reply: FastifyReply): void {
    void reply.code(302).header('location', '/app/').header('cache-control', 'no-cache').send();
  }

  @Get('app/assets/:name')
  async asset(@Param('name') name: string, @Res() reply: FastifyReply): Promise<void> {
    const file = await this.files.asset(name);
    if (!file) return notFound(reply);
    void reply.code(200).header('content-type', file.contentType).header('cache-control', 'public, max-age=31536000, immutable').send(file.body);
  }

  @Get(['app', 'app/*'])
  async page(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    // What the asset route did not take (a name longer than the router's parameter limit) is no page either.
    if (req.url.startsWith('/app/assets/')) return notFound(reply);
    const index = await this.files.index();
    if (!index) {
      void reply.code(503).header('content-type', 'text/plain; charset=utf-8').header('cache-control', 'no-cache').header('retry-after', '30').send(NOT_BUILT);
      return;
    }
    void reply.code(200).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-cache').send(index);
  }
}

function notFound(reply: FastifyReply): void {
  void reply.code(404).header('content-type', 'text/plain; charset=utf-8').header('cache-control', 'no-cache').send('Not found\n');
}
