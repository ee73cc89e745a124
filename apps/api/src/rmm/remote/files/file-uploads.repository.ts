import { Injectable } from '@nestjs/common';
import { Repository } from 'typeorm';
import { FileUploadEntity } from '@app/entities';
import { TransactionHost } from '../../../database/transaction-host';

export type NewUpload = Pick<FileUploadEntity, 'id' | 'agentId' | 'path' | 'size' | 'sha256' | 'overwrite' | 'received' | 'createdBy' | 'caller' | 'expiresAt'>;

/** file_uploads: one row per resumable upload (docs/files.md). */
@Injectable()
export class FileUploadsRepository {
  constructor(private readonly tx: TransactionHost) {}

  private get uploads(): Repository<FileUploadEntity> {
    return this.tx.repo(FileUploadEntity);
  }

  async insert(u: NewUpload): Promise<FileUploadEntity> {
    await this.uploads.insert({ ...u, status: 'open' });
    return (await this.uploads.findOneBy({ id: u.id }))!;
  }

  find(id: string, agentId: number): Promise<FileUploadEntity | null> {
    return this.uploads.findOneBy({ id, agentId });
  }

  /** What the agent has of an open upload (its answer to the last chunk). Only while open: an expiry meanwhile wins. */
  async setReceived(id: string, received: number): Promise<void> {
    await this.tx.exec(`UPDATE file_uploads SET received = $2 WHERE id = $1 AND status = 'open'`, [id, received]);
  }

  /** The upload's end (done or failed), once: false when it was not open any more (expired meanwhile). */
  async finish(id: string, status: 'done' | 'failed', received: number, at: Date): Promise<boolean> {
    const rows = await this.tx.rows<{ id: string }>(
      `UPDATE file_uploads SET status = $2, received = $3, finished_at = $4 WHERE id = $1 AND status = 'open' RETURNING id`,
      [id, status, received, at],
    );
    return rows.length > 0;
  }

  /** Open uploads past their expiry become `expired` (one statement over IDX_file_uploads_open); the rows changed. */
  expire(now: Date, limit = 500): Promise<Array<{ id: string; agentId: number; path: string }>> {
    return this.tx.rows(
      `UPDATE file_uploads SET status = 'expired', finished_at = $1
        WHERE id IN (SELECT id FROM file_uploads WHERE status = 'open' AND expires_at <= $1 ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING id, agent_id AS "agentId", path`,
      [now, limit],
    );
  }
}
