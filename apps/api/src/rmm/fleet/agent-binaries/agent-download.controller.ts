import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AGENT_TARGETS } from '@app/entities';
import { RuntimeConfig } from '../../../config/runtime-config';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { AgentBinaries } from './agent-binaries.service';
import { acceptsGzip, binaryFilename, etagMatches } from './agent-download';

/** The agent's single-file binaries: no key (the agent's code is not secret); the installers and updating agents fetch them. */
@ApiTags('agent')
@Controller('agent/v1')
export class AgentDownloadController {
  constructor(
    private readonly binaries: AgentBinaries,
    private readonly config: RuntimeConfig,
  ) {}

  @Get('download/:target')
  @ApiOperation({
    summary: "Download the agent's single-file binary for a target (no API key), of the version this server offers (RMM_AGENT_VERSION)",
    description:
      'Streams `rmm-agent-<target>` (`.exe` on windows) with `X-Checksum-Sha256` (hex SHA-256 of the binary) and `ETag: "<sha256>"` ' +
      '(`If-None-Match` with it: 304). With `Accept-Encoding: gzip` the gzip of it is sent (`Content-Encoding: gzip`; the checksum is ' +
      "still the binary's). A binary not built yet is built on this first request (seconds; concurrent requests wait for the same build). " +
      'HEAD answers the same headers without the body. Not rate limited (docs/api.md, "Agent binaries").',
  })
  @ApiParam({ name: 'target', enum: AGENT_TARGETS })
  @ApiHeader({ name: 'Accept-Encoding', required: false, description: 'gzip: the compressed variant' })
  @ApiHeader({ name: 'If-None-Match', required: false, description: '"<sha256>": 304 when the binary is that one' })
  @ApiProduces('application/octet-stream')
  @ApiResponse({
    status: 200,
    description: 'The binary (or its gzip, with Content-Encoding: gzip)',
    content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
    headers: {
      'X-Checksum-Sha256': { description: 'Hex SHA-256 of the binary (not of the gzip)', schema: { type: 'string' } },
      ETag: { description: '"<sha256>"', schema: { type: 'string' } },
      'Content-Encoding': { description: 'gzip when the gzip variant is sent', schema: { type: 'string' } },
      'Content-Disposition': { description: 'attachment; filename="rmm-agent-<target>[.exe]"', schema: { type: 'string' } },
    },
  })
  @ApiResponse({ status: 304, description: 'If-None-Match names this binary', headers: { ETag: { description: '"<sha256>"', schema: { type: 'string' } } } })
  @ApiResponse({ status: 404, type: RmmErrorDto, description: "{detail: 'unknown target: X', targets: [the five targets]}" })
  @ApiResponse({ status: 503, type: RmmErrorDto, description: "{detail}: the binary could not be built on this server (the server's log says why)" })
  async download(@Param('target') name: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const binary = await this.binaries.get(this.binaries.target(name));
    const gzip = binary.gzip !== undefined && acceptsGzip(req.headers['accept-encoding']);
    void reply
      .header('etag', `"${binary.sha256}"`)
      .header('x-checksum-sha256', binary.sha256)
      .header('cache-control', 'no-cache')
      .header('vary', 'Accept-Encoding');
    if (etagMatches(req.headers['if-none-match'], binary.sha256)) {
      void reply.code(304).send();
      return;
    }
    const file = await this.binaries.open(binary, gzip);
    void reply
      .code(200)
      .header('content-type', 'application/octet-stream')
      .header('content-disposition', `attachment; filename="${binaryFilename(binary.target)}"`)
      .header('content-length', String(file.size));
    if (file.encoding === 'gzip') void reply.header('content-encoding', 'gzip');
    // A client that reads nothing this long is cut off (its socket destroyed, the file closed with the stream).
    reply.raw.setTimeout(this.config.downloadIdleTimeoutMs, () => reply.raw.destroy());
    void reply.send(file.stream);
  }
}
