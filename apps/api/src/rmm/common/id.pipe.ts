import { Injectable, PipeTransform } from '@nestjs/common';
import { notFound } from '../../common/errors/domain-error';
import { isUuid, parseId } from '../../common/values';

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

/** A UUID in a path (a terminal session's id), lower-cased; anything else names nothing: 404 Not found. */
@Injectable()
export class ParseUuidPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!isUuid(value)) throw notFound();
    return value.toLowerCase();
  }
}
