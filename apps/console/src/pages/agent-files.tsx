import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, errorText } from '../api/http';
import { fileContentUrl, listFiles, type FileEntry } from '../api/hands';
import { ErrorNote, Loading } from '../components/bits';
import { when } from '../components/format';
import { beginUpload, sendChunks, sha256Hex, UploadInterrupted, type Upload } from '../components/uploader';

/*
 * The agent's Files tab (issue 32): one folder of the agent at a time (GET …/files/?path=, by pages), a download
 * link per file, and, with files:write, an upload into the folder shown (resumable: components/uploader.ts).
 * Loaded on its own (React.lazy in agent-remote.tsx), with the hashing library it needs.
 */

/** 1536 → "1.5 KiB": binary units, as `ls -h` counts. */
function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let n = bytes / 1024;
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${n < 10 ? n.toFixed(1) : Math.round(n)} ${units[i]}`;
}

const joinPath = (dir: string, name: string): string => (dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`);

/** '/var/log' → '/var'; '/var' → '/'; '/' → '/'. */
function parentPath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  const cut = trimmed.lastIndexOf('/');
  return cut <= 0 ? '/' : trimmed.slice(0, cut);
}

export default function FilesPanel({ agentId, canWrite }: { agentId: string; canWrite: boolean }) {
  const [path, setPath] = useState('/');
  const [typed, setTyped] = useState('/');
  const listing = useInfiniteQuery({
    queryKey: ['agent-files', agentId, path],
    queryFn: ({ pageParam, signal }) => listFiles(agentId, path, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    staleTime: 0,
  });
  const go = (to: string) => {
    setPath(to);
    setTyped(to);
  };
  const shown = listing.data?.pages[0]?.path ?? path;
  const entries = listing.data?.pages.flatMap((p) => p.entries) ?? [];

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const to = typed.trim() || '/';
    if (to === path) void listing.refetch();
    else go(to);
  };

  return (
    <div className="files-panel">
      <form className="path-bar" onSubmit={submit}>
        <label htmlFor={`files-path-${agentId}`}>Path</label>
        <input id={`files-path-${agentId}`} value={typed} onChange={(e) => setTyped(e.target.value)} spellCheck={false} autoComplete="off" />
        <button type="submit" className="secondary">
          Go
        </button>
        <button type="button" className="secondary outline" onClick={() => void listing.refetch()}>
          Refresh
        </button>
      </form>
      {canWrite && <UploadControl agentId={agentId} dir={shown} onDone={() => void listing.refetch()} />}
      {listing.isPending ? (
        <Loading what="the folder" />
      ) : listing.isError ? (
        <>
          <ErrorNote error={listing.error} />
          {path !== '/' && (
            <button type="button" className="secondary outline small" onClick={() => go(parentPath(path))}>
              Back to {parentPath(path)}
            </button>
          )}
        </>
      ) : (
        <>
          <div className="table-scroll" tabIndex={0} role="region" aria-label={`Contents of ${shown}`}>
            <table className="striped files-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Type</th>
                  <th scope="col">Size</th>
                  <th scope="col">Mode</th>
                  <th scope="col">Modified</th>
                  <th scope="col">
                    <span className="visually-hidden">Download</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown !== '/' && (
                  <tr>
                    <td>
                      <button type="button" className="link-button" aria-label={`.. (up to ${parentPath(shown)})`} onClick={() => go(parentPath(shown))}>
                        ..
                      </button>
                    </td>
                    <td>dir</td>
                    <td />
                    <td />
                    <td />
                    <td />
                  </tr>
                )}
                {entries.map((e) => (
                  <EntryRow key={e.name} agentId={agentId} dir={shown} entry={e} open={() => go(joinPath(shown, e.name))} />
                ))}
              </tbody>
            </table>
          </div>
          {entries.length === 0 && <p className="muted">This folder is empty.</p>}
          {listing.hasNextPage && (
            <button type="button" className="secondary" disabled={listing.isFetchingNextPage} onClick={() => void listing.fetchNextPage()}>
              {listing.isFetchingNextPage ? 'Loading…' : 'Load more'}
            </button>
          )}
        </>
      )}
    </div>
  );
}

function EntryRow({ agentId, dir, entry: e, open }: { agentId: string; dir: string; entry: FileEntry; open: () => void }) {
  return (
    <tr>
      <td>
        {e.type === 'dir' ? (
          <button type="button" className="link-button" onClick={open}>
            {e.name}/
          </button>
        ) : (
          e.name
        )}
      </td>
      <td>{e.type}</td>
      <td>{e.type === 'dir' ? '—' : humanSize(e.size)}</td>
      <td>
        <code>{e.mode}</code>
      </td>
      <td>{when(e.mtime)}</td>
      <td>
        {e.type === 'file' && (
          <a href={fileContentUrl(agentId, joinPath(dir, e.name))} download={e.name}>
            Download<span className="visually-hidden"> {e.name}</span>
          </a>
        )}
      </td>
    </tr>
  );
}

type UploadPhase =
  | { kind: 'idle' }
  | { kind: 'hashing'; name: string; hashed: number; size: number }
  | { kind: 'confirm'; name: string; path: string; sha256: string; file: File }
  | { kind: 'sending'; name: string; path: string; received: number; size: number; reconnecting: boolean }
  | { kind: 'interrupted'; name: string; path: string; received: number; size: number; upload: Upload }
  | { kind: 'done'; name: string; path: string; received: number; size: number }
  | { kind: 'failed'; name: string; error: string };

const percent = (part: number, whole: number) => (whole === 0 ? 100 : Math.floor((part / whole) * 100));

function UploadControl({ agentId, dir, onDone }: { agentId: string; dir: string; onDone: () => void }) {
  const [phase, setPhase] = useState<UploadPhase>({ kind: 'idle' });
  const abort = useRef<AbortController | null>(null);
  const qc = useQueryClient();
  useEffect(() => () => abort.current?.abort(), []);
  const busy = phase.kind === 'hashing' || phase.kind === 'sending';
  const inputId = `upload-${agentId}`;

  const send = async (up: Upload, name: string, path: string, from: number, signal: AbortSignal) => {
    setPhase({ kind: 'sending', name, path, received: from, size: up.file.size, reconnecting: false });
    try {
      await sendChunks(
        up,
        from,
        {
          progress: (received) => setPhase((p) => (p.kind === 'sending' ? { ...p, received } : p)),
          reconnecting: (on) => setPhase((p) => (p.kind === 'sending' ? { ...p, reconnecting: on } : p)),
        },
        signal,
      );
      setPhase({ kind: 'done', name, path, received: up.file.size, size: up.file.size });
      void qc.invalidateQueries({ queryKey: ['agent-files', agentId] });
      onDone();
    } catch (err) {
      if (signal.aborted) return;
      if (err instanceof UploadInterrupted) setPhase({ kind: 'interrupted', name, path, received: err.received, size: up.file.size, upload: up });
      else setPhase({ kind: 'failed', name, error: errorText(err) });
    }
  };

  const begin = async (file: File, path: string, sha256: string, overwrite: boolean, signal: AbortSignal) => {
    let up;
    try {
      up = await beginUpload(agentId, file, path, sha256, overwrite);
    } catch (err) {
      if (signal.aborted) return;
      if (err instanceof ApiError && err.status === 409 && !overwrite) setPhase({ kind: 'confirm', name: file.name, path, sha256, file });
      else setPhase({ kind: 'failed', name: file.name, error: errorText(err) });
      return;
    }
    await send(up, file.name, path, up.received, signal);
  };

  const picked = async (file: File) => {
    abort.current?.abort();
    const ctl = new AbortController();
    abort.current = ctl;
    const path = joinPath(dir, file.name);
    setPhase({ kind: 'hashing', name: file.name, hashed: 0, size: file.size });
    let sha256: string;
    try {
      sha256 = await sha256Hex(file, (hashed) => setPhase((p) => (p.kind === 'hashing' ? { ...p, hashed } : p)), ctl.signal);
    } catch (err) {
      if (!ctl.signal.aborted) setPhase({ kind: 'failed', name: file.name, error: `Cannot read the file: ${errorText(err)}` });
      return;
    }
    await begin(file, path, sha256, false, ctl.signal);
  };

  const restart = (run: (signal: AbortSignal) => Promise<void>) => {
    const ctl = new AbortController();
    abort.current = ctl;
    void run(ctl.signal);
  };

  return (
    <div className="upload">
      <div className="upload-pick">
        <label htmlFor={inputId} className="upload-label">
          Upload a file to {dir}
        </label>
        <input
          id={inputId}
          type="file"
          disabled={busy}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void picked(file);
          }}
        />
      </div>
      {phase.kind === 'hashing' && (
        <p aria-busy="true">
          Computing the checksum of {phase.name}… {percent(phase.hashed, phase.size)} %
        </p>
      )}
      {/* (left at 100 % once done, beside the "Uploaded" line) */}
      {(phase.kind === 'sending' || phase.kind === 'interrupted' || phase.kind === 'done') && (
        <div className="upload-progress">
          <label htmlFor={`${inputId}-progress`}>Uploading {phase.name}</label>
          <progress id={`${inputId}-progress`} value={phase.received} max={Math.max(phase.size, 1)} />
          <span>{percent(phase.received, phase.size)} %</span>
          {phase.kind === 'sending' && phase.reconnecting && (
            <p role="status" className="warn">
              Connection lost: resuming…
            </p>
          )}
          {phase.kind === 'interrupted' && (
            <p role="alert" className="error">
              Connection lost at {percent(phase.received, phase.size)} %.{' '}
              <button type="button" className="small" onClick={() => restart((signal) => send(phase.upload, phase.name, phase.path, phase.received, signal))}>
                Resume
              </button>
            </p>
          )}
        </div>
      )}
      {phase.kind === 'confirm' && (
        <div role="alertdialog" aria-labelledby={`${inputId}-confirm`} className="upload-confirm">
          <p id={`${inputId}-confirm`}>
            {phase.path} exists on the agent. Replace it?
          </p>
          <button type="button" onClick={() => restart((signal) => begin(phase.file, phase.path, phase.sha256, true, signal))}>
            Replace
          </button>{' '}
          <button type="button" className="secondary outline" onClick={() => setPhase({ kind: 'idle' })}>
            Cancel
          </button>
        </div>
      )}
      {phase.kind === 'done' && (
        <p role="status" className="ok">
          Uploaded {phase.path}.
        </p>
      )}
      {phase.kind === 'failed' && (
        <p role="alert" className="error">
          Upload of {phase.name} failed: {phase.error}
        </p>
      )}
    </div>
  );
}
