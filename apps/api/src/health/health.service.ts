import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

@Injectable()
export class HealthService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** True when PostgreSQL answers a trivial query within two seconds. */
  async databaseUp(): Promise<boolean> {
    const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2_000).unref());
    const probe = this.ds.query('SELECT 1').then(
      () => true,
      () => false,
    );
    return Promise.race([probe, timeout]);
  }
}
