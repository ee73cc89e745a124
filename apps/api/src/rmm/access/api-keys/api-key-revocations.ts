import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { ApiKeyCache } from './api-key-cache';

/** The PostgreSQL channel a revocation is announced on (ApiKeysRepository.revoke NOTIFYs it in the same statement). */
export const REVOCATION_CHANNEL = 'rmm_apikey_revoked';
const RETRY_MS = 2_000;

/**
 * Revocations made anywhere reach this server's key cache at once, through PostgreSQL's LISTEN/NOTIFY: by
 * another instance without Redis, or by the operator CLI (a process of its own). One dedicated connection per
 * server, outside the pool; if it drops, it is opened again and the cache is cleared (a revocation may have
 * been missed meanwhile). The Redis bus's `apikey.revoked` does the same for subscribers' sockets.
 */
@Injectable()
export class ApiKeyRevocations implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('api-keys');
  private client?: Client;
  private retry?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cache: ApiKeyCache,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.adapterHost.httpAdapter?.getHttpServer()) return; // (the CLI's context serves nothing: no cache to keep)
    void this.listen();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const url = (this.dataSource.options as { url?: string }).url;
    if (!url) return;
    const client = new Client({ connectionString: url, application_name: 'rmm-key-revocations' });
    const again = (why: string): void => {
      if (this.client !== client) return;
      this.client = undefined;
      this.cache.clear();
      void client.end().catch(() => undefined);
      if (this.stopped) return;
      this.logger.warn(`key revocation listener lost (${why}); listening again in ${RETRY_MS / 1000} s`);
      this.retry = setTimeout(() => void this.listen(), RETRY_MS);
      this.retry.unref();
    };
    client.on('error', (err: Error) => again(err.message));
    client.on('end', () => again('connection closed'));
    client.on('notification', (msg) => {
      const keyId = Number(msg.payload);
      if (msg.channel === REVOCATION_CHANNEL && Number.isInteger(keyId)) this.cache.forget(keyId);
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${REVOCATION_CHANNEL}`);
      if (this.stopped) await client.end();
    } catch (err) {
      again((err as Error).message);
    }
  }
}
