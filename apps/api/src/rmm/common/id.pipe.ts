import { Injectable, PipeTransform } from '@nestjs/common';
import { notFound } from '../../common/errors/domain-error';
import { parseId } from '../../common/values';

/**
 * A numeric id in a path ({id}, {agent_id}): a decimal integer that fits PostgreSQL's integer. Anything
 * else names nothing, so it is 404 Not found (never a 500 from the database).
 */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    const id = parseId(value);
    if (id === null) throw notFound();
    return id;
  }
}
