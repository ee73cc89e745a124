import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RmmErrorDto } from '../common/rmm-error.dto';
import { DeploymentsService } from './deployments.service';

/** The download URL of a deployment: no key (the URL is the credential), 410 once revoked or expired. */
@ApiTags('deployments')
@Controller('deploy')
export class DownloadController {
  constructor(private readonly deployments: DeploymentsService) {}

  @Get(':uuid')
  @ApiOperation({ summary: "Download a deployment's installer (no API key). 410 once revoked or expired, 404 for an unknown one" })
  @ApiProduces('application/octet-stream')
  @ApiResponse({ status: 200, description: 'The installer' })
  @ApiResponse({ status: 404, type: RmmErrorDto })
  @ApiResponse({ status: 410, type: RmmErrorDto, description: "{detail: 'deployment revoked'} or {detail: 'deployment expired'}" })
  async download(@Param('uuid') uuid: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const ua = req.headers['user-agent'];
    const installer = await this.deployments.download(uuid, { ip: req.ip ?? null, userAgent: typeof ua === 'string' ? ua : null });
    void reply
      .code(200)
      .header('content-type', installer.contentType)
      .header('content-disposition', `attachment; filename="${installer.filename}"`)
      .header('cache-control', 'no-store')
      .send(installer.body);
  }
}
