import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/**
 * Optional paging of a list: `limit` (1–1000) and `offset`. Without them a list answers the spec's plain
 * array in full; with them, the same array shape, one page of it, and X-Total-Count gives the total.
 * Lists are ordered by id, so pages are stable.
 */
export class PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 1000, description: 'Page size' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;

  @ApiPropertyOptional({ minimum: 0, description: 'Rows to skip' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(2_000_000_000)
  offset?: number;
}

export interface Page {
  limit?: number;
  offset: number;
}

export const pageOf = (q: PageQueryDto): Page => ({ limit: q.limit, offset: q.offset ?? 0 });
export const isPaged = (q: PageQueryDto): boolean => q.limit !== undefined || q.offset !== undefined;
