// The checks the file commands and sessions make of what the server sends (it checks them too: these keep a
// server of another version, or a bug, from reaching the file system with a relative path or a negative offset).
import { isAbsolute, resolve } from 'node:path';
import { FileError } from './files-errors';

/** The path normalized, or FileError 'path must be absolute'. */
export function absolutePath(value: unknown): string {
  if (typeof value !== 'string' || value === '' || value.includes('\0') || !isAbsolute(value)) throw new FileError('path must be absolute');
  return resolve(value);
}

/** A whole number of bytes ≥ 0 (undefined when absent and optional). */
export function byteCount(value: unknown, name: string, optional: true): number | undefined;
export function byteCount(value: unknown, name: string, optional?: false): number;
export function byteCount(value: unknown, name: string, optional = false): number | undefined {
  if (value === undefined && optional) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new FileError(`${name} must be a whole number ≥ 0`);
  return value;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An upload's id: a UUID, which is also what keeps its temporary file's name safe. */
export function uploadId(value: unknown): string {
  if (typeof value !== 'string' || !UUID.test(value)) throw new FileError('upload must be a UUID');
  return value.toLowerCase();
}
