import { ApiError, CSRF_HEADER, notifyUnauthorized } from './http';
import { withStepUp } from './step-up';
import type { Scope } from './schemas';

/*
 * Issue 32's routes (an agent's terminal and files), called without openapi-fetch's types: docs/openapi.json
 * does not have them until the server's side lands. Once `npm run openapi` brings them into openapi.d.ts, these
 * calls can move to `api` and these hand-written shapes go away.
 */

/** The scopes of issue 32 (the generated `Scope` gains them with the server's side). */
export type HandsScope = 'terminal' | 'files:read' | 'files:write';

/** `can` of the session, asked about a scope the generated types may not know yet. */
export const canHands = (can: (scope: Scope) => boolean, scope: HandsScope): boolean => (can as (scope: string) => boolean)(scope);

export interface TerminalSession {
  session_id: string;
  /** A same-origin path of the session's WebSocket: /rmm/terminal/{session_id}/. */
  url: string;
  expires_in: number;
}

type FileType = 'file' | 'dir' | 'link' | 'other';

export interface FileEntry {
  name: string;
  type: FileType;
  size: number;
  /** Octal, as `ls` prints it: '0644'. */
  mode: string;
  mtime: string;
}

export interface FileListing {
  path: string;
  entries: FileEntry[];
  next_cursor: string | null;
}

export interface UploadStarted {
  upload_id: string;
  chunk_size: number;
  received: number;
}

export type UploadStatus = 'open' | 'done' | 'failed' | 'expired';

export interface UploadState {
  upload_id: string;
  path: string;
  size: number;
  received: number;
  status: UploadStatus;
}

const agentPath = (agentId: string) => `/api/v3/agents/${encodeURIComponent(agentId)}`;

/** One call: JSON in and out; a non-2xx answer throws an ApiError carrying the server's `detail` and body. */
async function call<T>(method: string, url: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const headers: Record<string, string> = { ...CSRF_HEADER, Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await withStepUp(() => fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin', signal }));
  return answer<T>(res);
}

async function answer<T>(res: Response): Promise<T> {
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  if (!res.ok) {
    // (A step-up 401 that is still one after re-authenticating is not a signed-out session.)
    if (res.status === 401 && (parsed as { step_up?: unknown } | undefined)?.step_up !== true) notifyUnauthorized();
    const detail =
      parsed && typeof parsed === 'object' && typeof (parsed as { detail?: unknown }).detail === 'string'
        ? (parsed as { detail: string }).detail
        : `${res.status} ${res.statusText || 'error'}`;
    throw new ApiError(res.status, detail, parsed);
  }
  return parsed as T;
}

export function openTerminal(agentId: string, size: { cols: number; rows: number; shell?: string }): Promise<TerminalSession> {
  return call('POST', `${agentPath(agentId)}/terminal/`, size);
}

export function listFiles(agentId: string, path: string, cursor?: string | null, signal?: AbortSignal): Promise<FileListing> {
  const q = new URLSearchParams({ path });
  if (cursor) q.set('cursor', cursor);
  return call('GET', `${agentPath(agentId)}/files/?${q.toString()}`, undefined, signal);
}

/** The file's bytes: a plain link (the cookie authenticates a GET; the server sends Content-Length and the checksum). */
export function fileContentUrl(agentId: string, path: string): string {
  return `${agentPath(agentId)}/files/content?${new URLSearchParams({ path }).toString()}`;
}

export function startUpload(agentId: string, body: { path: string; size: number; sha256: string; overwrite?: boolean }): Promise<UploadStarted> {
  return call('POST', `${agentPath(agentId)}/files/uploads/`, body);
}

export function uploadState(agentId: string, uploadId: string): Promise<UploadState> {
  return call('GET', `${agentPath(agentId)}/files/uploads/${encodeURIComponent(uploadId)}`);
}

/** One chunk at `offset` (which must be what the server has received). A dropped connection rejects with a TypeError. */
export async function putChunk(agentId: string, uploadId: string, offset: number, chunk: Blob, signal?: AbortSignal): Promise<{ received: number; status: UploadStatus }> {
  const res = await fetch(`${agentPath(agentId)}/files/uploads/${encodeURIComponent(uploadId)}?offset=${offset}`, {
    method: 'PUT',
    headers: { ...CSRF_HEADER, Accept: 'application/json', 'Content-Type': 'application/octet-stream' },
    body: chunk,
    credentials: 'same-origin',
    signal,
  });
  return answer(res);
}
