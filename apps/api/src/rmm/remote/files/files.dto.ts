import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { FILE_UPLOAD_STATUSES, FileUploadEntity, FileUploadStatus } from '@app/entities';
import { IsOptionalNotNull } from '../../common/optional-not-null';

/** The longest path the agent is asked about (the protocol's limit). */
export const PATH_MAX = 4096;
/** The largest file uploaded (4 GiB, the agent's limit too). */
export const UPLOAD_SIZE_MAX = 4 * 1024 ** 3;
/** The most bytes one PUT of an upload carries. */
export const CHUNK_SIZE = 1024 * 1024;

/** Absolute on every system the agent runs on: `/…` (Linux, macOS), `C:\…` or `\\server\share` (Windows). */
const ABSOLUTE = /^(\/|[A-Za-z]:[\\/]|\\\\)/;
const ABSOLUTE_MESSAGE = 'path must be absolute';

export class ListFilesQueryDto {
  @ApiProperty({ maxLength: PATH_MAX, example: '/var/log', description: 'The directory, an absolute path on the agent' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(PATH_MAX)
  @Matches(ABSOLUTE, { message: ABSOLUTE_MESSAGE })
  path: string;

  @ApiPropertyOptional({ maxLength: 1024, description: "The previous page's next_cursor" })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  cursor?: string;
}

export class FileContentQueryDto {
  @ApiProperty({ maxLength: PATH_MAX, example: '/var/log/syslog', description: 'The file, an absolute path on the agent' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(PATH_MAX)
  @Matches(ABSOLUTE, { message: ABSOLUTE_MESSAGE })
  path: string;
}

export class FileEntryDto {
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['file', 'dir', 'link', 'other'] }) type: 'file' | 'dir' | 'link' | 'other';
  @ApiProperty({ description: 'Bytes (a link: the link itself)' }) size: number;
  @ApiProperty({ example: '0644', description: 'Permission bits, octal' }) mode: string;
  @ApiProperty({ format: 'date-time' }) mtime: string;
}

export class FileListDto {
  @ApiProperty({ description: 'The directory as the agent resolved it' }) path: string;
  @ApiProperty({ type: [FileEntryDto], description: 'At most 1,000 entries, by name' }) entries: FileEntryDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Give it as `cursor` for the next page; null on the last page' }) next_cursor: string | null;
}

export class StartUploadDto {
  @ApiProperty({ maxLength: PATH_MAX, example: '/opt/tools/setup.sh', description: 'Where the file goes, an absolute path on the agent (its directory must exist)' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(PATH_MAX)
  @Matches(ABSOLUTE, { message: ABSOLUTE_MESSAGE })
  path: string;

  @ApiProperty({ minimum: 0, maximum: UPLOAD_SIZE_MAX, description: 'The whole file, in bytes (at most 4 GiB)' })
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(UPLOAD_SIZE_MAX)
  size: number;

  @ApiProperty({ pattern: '^[0-9a-fA-F]{64}$', description: "The whole file's SHA-256, hexadecimal: the agent checks it before the file is put in place" })
  @IsString()
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'sha256 must be 64 hexadecimal digits' })
  sha256: string;

  @ApiPropertyOptional({ default: false, description: 'Replace a file already there (else 409 file exists)' })
  @IsOptionalNotNull()
  @IsBoolean()
  overwrite?: boolean;
}

export class UploadChunkQueryDto {
  @ApiProperty({ minimum: 0, maximum: UPLOAD_SIZE_MAX, description: 'Where this chunk starts: the upload\'s `received`' })
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(UPLOAD_SIZE_MAX)
  offset: number;
}

export class UploadStartedDto {
  @ApiProperty({ format: 'uuid' }) upload_id: string;
  @ApiProperty({ example: CHUNK_SIZE, description: 'The most bytes one PUT may carry' }) chunk_size: number;
  @ApiProperty({ description: 'Bytes the agent already has (0 for a new upload): the first PUT\'s offset' }) received: number;
}

export class UploadProgressDto {
  @ApiProperty({ description: 'Bytes the agent has: the next PUT\'s offset' }) received: number;
  @ApiProperty({ enum: ['open', 'done'], description: 'done: the file is in place, checked' }) status: 'open' | 'done';
  @ApiPropertyOptional({ description: 'status done: the SHA-256 the agent computed' }) sha256?: string;
}

export class UploadDto {
  @ApiProperty({ format: 'uuid' }) upload_id: string;
  @ApiProperty() path: string;
  @ApiProperty() size: number;
  @ApiProperty({ description: 'Bytes the agent has: the next PUT\'s offset' }) received: number;
  @ApiProperty({ enum: FILE_UPLOAD_STATUSES }) status: FileUploadStatus;
}

export const toUploadDto = (u: FileUploadEntity): UploadDto => ({ upload_id: u.id, path: u.path, size: u.size, received: u.received, status: u.status });
