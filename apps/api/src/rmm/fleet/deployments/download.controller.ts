import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fieldInvalid } from '../../../common/errors/domain-error';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { DeploymentsService } from './deployments.service';
import { INSTALLER_PLATFORMS, InstallerPlatform } from './installer';

/** The download URL of a deployment: no key (the URL is the credential), 410 once revoked, expired or used up. */
@ApiTags('deployments')
@Controller('deploy')
export class DownloadController {
  constructor(private readonly deployments: DeploymentsService) {}

  @Get(':uuid')
  @ApiOperation({
    summary: "Download a deployment's installer (no API key). 410 once revoked, expired or used up, 404 for an unknown one",
    description:
      'A POSIX shell script (linux, darwin) or a PowerShell script (windows) carrying the server URL and the deployment token; ' +
      'without `platform`, a User-Agent containing PowerShell gets the PowerShell script, any other the shell script. ' +
      'A native installer found in RMM_INSTALLERS_DIR (`<platform>-<arch>.<ext>`) is served instead, named `rmm-agent-<token>.<ext>`. ' +
      'At most RMM_DOWNLOAD_RATE_LIMIT_PER_MINUTE (30) attempts per minute per link and client address are answered and recorded; past it 429, nothing recorded.',
  })
  @ApiQuery({ name: 'platform', required: false, enum: INSTALLER_PLATFORMS })
  @ApiProduces('text/x-shellscript', 'text/plain', 'application/octet-stream')
  @ApiResponse({ status: 200, description: 'The installer' })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'an unknown `platform`' })
  @ApiResponse({ status: 404, type: RmmErrorDto })
  @ApiResponse({ status: 410, type: RmmErrorDto, description: "{detail: 'deployment revoked'}, {detail: 'deployment expired'} or {detail: 'deployment used up'} (max_registrations reached)" })
  @ApiResponse({ status: 429, type: RmmErrorDto, description: "{detail: 'rate limited'}: too many attempts on this link from this address this minute; Retry-After says when to retry. Not recorded" })
  async download(
    @Param('uuid') uuid: string,
    @Query('platform') platform: unknown,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (platform !== undefined && !(typeof platform === 'string' && (INSTALLER_PLATFORMS as readonly string[]).includes(platform))) {
      throw fieldInvalid('platform', `must be one of ${INSTALLER_PLATFORMS.join(', ')}`);
    }
    const ua = req.headers['user-agent'];
    const installer = await this.deployments.download(uuid, {
      ip: req.ip ?? null,
      userAgent: typeof ua === 'string' ? ua : null,
      platform: platform as InstallerPlatform | undefined,
    });
    void reply
      .code(200)
      .header('content-type', installer.contentType)
      .header('content-disposition', `attachment; filename="${installer.filename}"`)
      .header('cache-control', 'no-store');
    if (installer.size !== undefined) streamed(reply, installer.size, this.deployments.downloadIdleTimeoutMs);
    void reply.send(installer.body);
  }
}

/**
 * A native installer goes out as it is read from disk (memory per download: the stream's buffers), with its
 * Content-Length; a client that reads nothing for `idleMs` is cut off (its socket is destroyed, and the stream
 * and its file are closed with it).
 */
function streamed(reply: FastifyReply, size: number, idleMs: number): void {
  void reply.header('content-length', String(size));
  reply.raw.setTimeout(idleMs, () => reply.raw.destroy());
}
