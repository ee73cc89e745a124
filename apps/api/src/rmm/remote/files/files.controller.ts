import { Body, Get, Headers, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { changeActor } from '../../access/audit/audit-change';
import { ParseIdPipe } from '../../common/id.pipe';
import { AuthedRequest } from '../../common/principal';
import { RmmController } from '../../common/rmm-controller';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { RequireScope } from '../../common/scopes';
import { sendDownload } from './files-http';
import { FileContentQueryDto, FileListDto, ListFilesQueryDto, StartUploadDto, UploadChunkQueryDto, UploadDto, UploadProgressDto, UploadStartedDto } from './files.dto';
import { FilesService } from './files.service';

const OFFLINE = { status: 409, type: RmmErrorDto, description: '{detail: "agent is offline"}' } as const;
const NO_AGENT = { status: 404, type: RmmErrorDto, description: 'No such agent (or one of a client the caller may not see); the agent\'s {detail: "no such file or directory"}' } as const;

/**
 * Files on an agent under /api/v3/agents/{agent_id}/files/ (docs/files.md): browse, download (streamed, Range), and
 * resumable uploads. Routes of the agents' resource, served here so that the agents (fleet) know nothing of files.
 */
@RmmController('agents', 'agents')
export class FilesController {
  constructor(private readonly files: FilesService) {}

  @Get(':agentId/files')
  @RequireScope('files:read')
  @ApiOperation({ operationId: 'agentsFiles', summary: "A directory on the agent: 1,000 entries a page (next_cursor gives the next). The agent's refusals keep its words: 404 no such file or directory, 403 permission denied, 400 not a directory. Scope: files:read" })
  @ApiOkResponse({ type: FileListDto })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error (path: required, absolute); {detail: "not a directory"}' })
  @ApiResponse({ status: 403, type: RmmErrorDto, description: '{detail: "permission denied"}: the key lacks the scope, or the agent\'s user may not read it' })
  @ApiResponse(NO_AGENT)
  @ApiResponse(OFFLINE)
  list(@Param('agentId', ParseIdPipe) id: number, @Query() q: ListFilesQueryDto, @Req() req: AuthedRequest): Promise<FileListDto> {
    return this.files.list(id, q.path, q.cursor, req.principal!);
  }

  @Get(':agentId/files/content')
  @RequireScope('files:read')
  @ApiOperation({
    operationId: 'agentsFileContent',
    summary:
      "A file's bytes, streamed from the agent: Content-Length, X-Checksum-Sha256 (the agent's, of the whole file), Accept-Ranges: bytes. One Range (bytes=a-b, a-, -n) gives 206 with Content-Range; a range past the end 416 with Content-Range: bytes */size. Audited (file.download). Scope: files:read",
  })
  @ApiProduces('application/octet-stream')
  @ApiHeader({ name: 'Range', required: false, description: 'bytes=a-b, bytes=a- or bytes=-n (one range)' })
  @ApiOkResponse({ description: 'The whole file', schema: { type: 'string', format: 'binary' } })
  @ApiResponse({ status: 206, description: 'The range asked for', schema: { type: 'string', format: 'binary' } })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error (path); {detail: "is a directory"}' })
  @ApiResponse({ status: 403, type: RmmErrorDto, description: '{detail: "permission denied"}' })
  @ApiResponse(NO_AGENT)
  @ApiResponse(OFFLINE)
  @ApiResponse({ status: 416, type: RmmErrorDto, description: '{detail: "range not satisfiable: …"}, Content-Range: bytes */size' })
  async content(
    @Param('agentId', ParseIdPipe) id: number,
    @Query() q: FileContentQueryDto,
    @Headers('range') range: string | undefined,
    @Req() req: AuthedRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    sendDownload(reply, await this.files.download(id, q.path, range, req.principal!, changeActor(req)));
  }

  @Post(':agentId/files/uploads')
  @RequireScope('files:write')
  @ApiOperation({
    operationId: 'agentsStartUpload',
    summary:
      'Start a resumable upload of one file (at most 4 GiB): the agent checks the target (its directory exists; not a directory; absent unless overwrite) and keeps the bytes in a temporary file beside it. Send chunks with PUT …/uploads/{upload_id}?offset=N. Open for 24 hours. Scope: files:write',
  })
  @ApiCreatedResponse({ type: UploadStartedDto })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error (path, size, sha256, overwrite); {detail: "not a directory"} / "is a directory"' })
  @ApiResponse({ status: 403, type: RmmErrorDto, description: '{detail: "permission denied"}' })
  @ApiResponse(NO_AGENT)
  @ApiResponse({ status: 409, type: RmmErrorDto, description: '{detail: "agent is offline"}; {detail: "file exists"} (without overwrite)' })
  startUpload(@Param('agentId', ParseIdPipe) id: number, @Body() body: StartUploadDto, @Req() req: AuthedRequest): Promise<UploadStartedDto> {
    return this.files.startUpload(id, body, req.principal!);
  }

  @Put(':agentId/files/uploads/:uploadId')
  @RequireScope('files:write')
  @ApiOperation({
    operationId: 'agentsUploadChunk',
    summary:
      "One chunk of an upload (at most chunk_size bytes, Content-Type: application/octet-stream) at offset = the upload's received. What reaches the agent is kept even if the request is cut (GET the upload for received, and go on from there). The last chunk makes the agent check the SHA-256 and put the file in place (status done), or remove it (422). Scope: files:write",
  })
  @ApiConsumes('application/octet-stream')
  @ApiBody({ schema: { type: 'string', format: 'binary' } })
  @ApiOkResponse({ type: UploadProgressDto })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error (offset)' })
  @ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such agent, or upload (another caller\'s included)' })
  @ApiResponse({
    status: 409,
    type: RmmErrorDto,
    description: '{detail: "offset must be N: …", received: N}: another offset than received, or an upload no longer open; {detail: "another PUT of this upload is under way"}; {detail: "agent is offline"}',
  })
  @ApiResponse({ status: 413, type: RmmErrorDto, description: '{detail: "a chunk is at most 1048576 bytes"}, or past the upload\'s size' })
  @ApiResponse({ status: 422, type: RmmErrorDto, description: '{detail: "checksum mismatch: expected <a>, got <b>"}: the upload failed, nothing left on the agent' })
  putChunk(
    @Param('agentId', ParseIdPipe) id: number,
    @Param('uploadId') uploadId: string,
    @Query() q: UploadChunkQueryDto,
    @Req() req: AuthedRequest,
  ): Promise<UploadProgressDto> {
    return this.files.putChunk(id, uploadId, q.offset, chunkOf(req), req.principal!, changeActor(req));
  }

  @Get(':agentId/files/uploads/:uploadId')
  @RequireScope('files:write')
  @ApiOperation({ operationId: 'agentsUpload', summary: "An upload as it stands: received is the next PUT's offset. Scope: files:write" })
  @ApiOkResponse({ type: UploadDto })
  @ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such agent, or upload (another caller\'s included)' })
  upload(@Param('agentId', ParseIdPipe) id: number, @Param('uploadId') uploadId: string, @Req() req: AuthedRequest): Promise<UploadDto> {
    return this.files.getUpload(id, uploadId, req.principal!);
  }
}

/** The request's raw body (files-http.ts lets it through unread) and its declared length. */
function chunkOf(req: AuthedRequest): { stream: AuthedRequest['raw']; declaredLength: number | undefined } {
  const declared = req.headers['content-length'];
  return { stream: req.raw, declaredLength: declared === undefined ? undefined : Number(declared) };
}
