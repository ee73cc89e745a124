import type { ResultMessage } from '@app/protocol/agent';
import { listDirectory } from '../files/list';
import { uploadAbort, uploadBegin, uploadFinish } from '../files/write';
import { Connection, Handler, HandlerDeps, handler } from './handler';

/** Answers a files command: its result, or the agent's words for what went wrong (`no such file or directory`). */
async function answer(id: string, connection: Connection, work: () => Promise<unknown>): Promise<void> {
  let message: ResultMessage;
  try {
    message = { type: 'result', id, ok: true, result: (await work()) as never };
  } catch (err) {
    message = { type: 'result', id, ok: false, error: (err as Error).message || 'failed' };
  }
  connection.send(message);
}

/** files.list, files.upload.begin, files.upload.finish, files.upload.abort (files/; docs/files.md). */
export function filesHandlers({ log }: HandlerDeps): Handler[] {
  return [
    handler({ type: 'files.list', handle: (m, c) => answer(m.id, c, () => listDirectory(m.path, m.cursor ?? null)) }),
    handler({
      type: 'files.upload.begin',
      handle: (m, c) => {
        log(`upload ${m.upload}: ${m.size} bytes to ${m.path}`);
        return answer(m.id, c, () => uploadBegin({ upload: m.upload, path: m.path, size: m.size, overwrite: m.overwrite }));
      },
    }),
    handler({
      type: 'files.upload.finish',
      handle: (m, c) =>
        answer(m.id, c, async () => {
          const done = await uploadFinish({ upload: m.upload, path: m.path, size: m.size, sha256: m.sha256, overwrite: m.overwrite });
          log(`upload ${m.upload}: ${m.path} in place (${done.size} bytes)`);
          return done;
        }),
    }),
    handler({ type: 'files.upload.abort', handle: (m, c) => answer(m.id, c, () => uploadAbort({ upload: m.upload, path: m.path }).then(() => ({}))) }),
  ];
}
