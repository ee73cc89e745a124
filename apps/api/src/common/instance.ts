import { Global, Injectable, Module } from '@nestjs/common';
import { randomUUID } from 'node:crypto';

/**
 * This server process among the instances on one database: a UUID made at start, stable until the process ends.
 * The Redis ownership records and command channels (RedisPubSub) and the job registry's rows name it.
 */
@Injectable()
export class ThisInstance {
  readonly id: string = randomUUID();
}

@Global()
@Module({ providers: [ThisInstance], exports: [ThisInstance] })
export class InstanceModule {}
