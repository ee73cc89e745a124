import { Module } from '@nestjs/common';
import { EnrollController } from './enroll.controller';
import { EnrollService } from './enroll.service';
import { UpstreamClient } from './upstream.client';

/** (A) The enrollment function. It talks to the data platform and the backend only over HTTP. */
@Module({ controllers: [EnrollController], providers: [EnrollService, UpstreamClient] })
export class EnrollModule {}
