import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { ApiError } from '../api/http';
import { putChunk, startUpload, uploadState, type UploadStarted } from '../api/hands';

/*
 * A resumable upload to an agent (issue 32): the whole file's SHA-256 first (the server checks it at the end),
 * then POST …/files/uploads/ and one PUT per chunk at the offset the server has. A PUT that fails on the way (the
 * connection dropped) is not an answer: the server is asked what it received (GET …/uploads/{id}) and the upload
 * goes on from there, with back-off, a few times; after that the caller offers to resume by hand.
 */

/** How much of the file is read at a time to hash it (the browser's crypto.subtle only hashes a whole buffer). */
const HASH_SLICE = 4 * 1024 * 1024;
/** Back-off between attempts after a dropped connection: 0.5, 1, 2, 4 s; then the caller offers Resume. */
const RETRY_DELAYS_MS = [500, 1000, 2000, 4000];

export async function sha256Hex(file: Blob, onProgress?: (hashed: number) => void, signal?: AbortSignal): Promise<string> {
  const h = sha256.create();
  for (let at = 0; at < file.size; at += HASH_SLICE) {
    signal?.throwIfAborted();
    h.update(new Uint8Array(await file.slice(at, at + HASH_SLICE).arrayBuffer()));
    onProgress?.(Math.min(file.size, at + HASH_SLICE));
  }
  return bytesToHex(h.digest());
}

/** The connection dropped more times in a row than the back-off allows: resume later from `received`. */
export class UploadInterrupted extends Error {
  constructor(readonly received: number) {
    super('Connection lost');
  }
}

export interface UploadEvents {
  /** Bytes the server has, after each chunk (and after asking it, when resuming). */
  progress: (received: number) => void;
  /** A PUT failed on the way: the upload is resuming (true), or goes on again (false). */
  reconnecting: (on: boolean) => void;
}

export interface Upload {
  agentId: string;
  uploadId: string;
  chunkSize: number;
  file: Blob;
}

/** POST the upload; a 409 (the file exists, without `overwrite`) is the ApiError the caller asks about. */
export async function beginUpload(agentId: string, file: Blob, path: string, sha256: string, overwrite: boolean): Promise<Upload & { received: number }> {
  const started: UploadStarted = await startUpload(agentId, { path, size: file.size, sha256, ...(overwrite ? { overwrite: true } : {}) });
  return { agentId, uploadId: started.upload_id, chunkSize: started.chunk_size, file, received: started.received };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    });
  });

/**
 * Sends the chunks from `received` to the end. Resolves when the server says `done`; rejects with the server's
 * ApiError (a 422 checksum mismatch, a 404 for an upload it forgot…), or with UploadInterrupted.
 */
export async function sendChunks(up: Upload, received: number, on: UploadEvents, signal?: AbortSignal): Promise<void> {
  const { file, chunkSize } = up;
  let failures = 0;
  on.progress(received);
  for (;;) {
    signal?.throwIfAborted();
    let answer: { received: number; status: string } | undefined;
    try {
      // An empty file is one empty PUT: the server's answer to it is `done`.
      answer = await putChunk(up.agentId, up.uploadId, received, file.slice(received, received + chunkSize), signal);
    } catch (err) {
      if (signal?.aborted) throw err;
      if (err instanceof ApiError) {
        if (err.status !== 409) throw err;
        const has = (err.body as { received?: unknown } | undefined)?.received;
        // 409 with `received`: the offset was not what the server has (a chunk it got whose answer was lost): go on
        // from its count. Without: another PUT of it is under way (the browser may send a request again after a
        // connection it reused went away): asked again below, after a pause, as for a dropped connection.
        if (typeof has === 'number') {
          received = has;
          on.progress(received);
          continue;
        }
      }
      // else the connection dropped (fetch rejects with a TypeError): handled below
    }
    if (answer) {
      received = answer.received;
      if (failures > 0) on.reconnecting(false);
      failures = 0;
      on.progress(received);
      if (answer.status === 'done') return;
      if (received >= file.size) {
        // Every byte sent and not done: what the server says of it is the answer.
        const state = await uploadState(up.agentId, up.uploadId);
        if (state.status === 'done') return;
        throw new Error(`The upload ended as "${state.status}"`);
      }
      continue;
    }
    // The connection dropped: ask the server where it stands, after a pause.
    if (failures >= RETRY_DELAYS_MS.length) throw new UploadInterrupted(received);
    on.reconnecting(true);
    await sleep(RETRY_DELAYS_MS[failures++], signal);
    try {
      const state = await uploadState(up.agentId, up.uploadId);
      if (state.status === 'done') {
        on.progress(state.size);
        return;
      }
      if (state.status !== 'open') throw new Error(`The upload is ${state.status}: start it again`);
      received = state.received;
      on.progress(received);
    } catch (err) {
      if (err instanceof ApiError || !(err instanceof TypeError)) throw err;
      // still unreachable: the next round tries the PUT (and then this) again
    }
  }
}
