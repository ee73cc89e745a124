import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FileDownload } from './files.service';

/** The one route whose body is a raw byte stream (an upload's chunk). */
const isChunkRoute = (req: FastifyRequest): boolean => req.method === 'PUT' && (req.routeOptions.url ?? '').endsWith('/files/uploads/:uploadId');

/**
 * `application/octet-stream` bodies, for an upload's chunk only: handed to the handler unread (the raw request is
 * the stream it pipes to the agent), so a chunk is never held whole in memory. Any other route answers 415 for
 * this type, as it did before (common/http/body-parsers.ts answers 415 for every type it does not know).
 */
@Injectable()
export class ChunkBodyParser implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    // The CLI's application context has no HTTP server.
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return;
    fastify.addContentTypeParser('application/octet-stream', (req: FastifyRequest, payload: unknown, done: (err: Error | null, body?: unknown) => void) => {
      if (isChunkRoute(req)) return done(null, payload);
      done(Object.assign(new Error(`Unsupported Media Type: ${req.headers['content-type'] ?? ''}`), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' }));
    });
  }
}

/** Answers a download: its status and headers, then the body as the agent sends it. A reply that goes away ends the stream (and the session). */
export function sendDownload(reply: FastifyReply, download: FileDownload): void {
  reply.raw.once('close', () => {
    if (!download.body.readableEnded) download.body.destroy();
  });
  void reply.status(download.status).headers(download.headers).send(download.body);
}
