import { Injectable, PipeTransform } from '@nestjs/common';
import { notFound } from '../../common/errors/domain-error';

/**
 * A numeric id in a path ({id}, {agent_id}): a decimal integer that fits PostgreSQL's integer. Anything
 * else names nothing, so it is 404 Not found (never a 500 from the database).
 */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^\d{1,10}$/.test(value ?? '')) throw notFound();
    const n = Number(value);
    if (n < 1 || n > 2_147_483_647) throw notFound();
    return n;
  }
}
