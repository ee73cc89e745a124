import { useEffect, useRef, useState } from 'react';
import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import '@xterm/xterm/css/xterm.css';
import { errorText } from '../api/http';
import { openTerminal } from '../api/hands';
import { copyText } from '../components/bits';
import { allowXtermUnderCsp } from '../components/xterm-csp';

/*
 * The agent's Terminal tab (issue 32): a shell on the agent in xterm.js. Loaded on its own (React.lazy in
 * agent-remote.tsx), so xterm is downloaded by the operators who open a terminal and not by every page.
 *
 * One session: POST /terminal/ with the terminal's size, then the WebSocket at the answer's `url` (the session
 * cookie authenticates it). Binary frames are the terminal's bytes both ways, handed to xterm as they come
 * (xterm decodes UTF-8 across chunks; decoding a chunk here would break a character split between two). Text
 * frames are JSON control: `resize` from here, `exit` from the server, then the close whose reason says why the
 * session ended.
 */

type Phase = { kind: 'idle' } | { kind: 'opening' } | { kind: 'open' } | { kind: 'ended'; why: string } | { kind: 'failed'; error: string };

/** What the operator reads when the session ends: the close reason, with the exit code when the shell exited. */
function endedText(reason: string, exitCode: number | null): string {
  const why = reason || 'connection lost';
  return why === 'exit' && exitCode !== null ? `Session ended: exit (code ${exitCode})` : `Session ended: ${why}`;
}

const encoder = new TextEncoder();

export default function TerminalPanel({ agentId, offline }: { agentId: string; offline: boolean }) {
  const area = useRef<HTMLDivElement>(null);
  const current = useRef<{ term: Terminal; ws?: WebSocket; stop: () => void; close: () => void } | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });

  // Leaving the page (or the agent) ends the session; the server would end it at its idle limit otherwise.
  useEffect(() => () => current.current?.stop(), []);

  const start = async () => {
    current.current?.stop();
    current.current = null;
    const host = area.current;
    if (!host) return;
    setPhase({ kind: 'opening' });
    allowXtermUnderCsp();
    host.replaceChildren();
    const term = new Terminal({
      cursorBlink: true,
      scrollback: 5000,
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
      fontSize: 14,
    });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(host);
    fit.fit();
    // Ctrl+Shift+C copies the selection (Ctrl+C stays the shell's interrupt); paste (Ctrl+Shift+V, Ctrl+V, the
    // context menu) is the browser's paste event, which xterm takes as it is.
    term.attachCustomKeyEventHandler((e) => {
      if (e.type === 'keydown' && e.ctrlKey && e.shiftKey && e.code === 'KeyC' && term.hasSelection()) {
        void copyText(term.getSelection());
        return false;
      }
      return true;
    });
    const disposers: Array<() => void> = [];
    const session = { term, ws: undefined as WebSocket | undefined, stop: () => undefined as void, close: () => undefined as void };
    let stopped = false;
    let closedHere = false;
    session.close = () => {
      closedHere = true;
      session.ws?.close(1000, 'closed');
    };
    session.stop = () => {
      stopped = true;
      for (const d of disposers) d();
      if (session.ws && session.ws.readyState <= WebSocket.OPEN) session.ws.close(1000, 'closed');
      term.dispose();
    };
    current.current = session;

    let opened;
    try {
      opened = await openTerminal(agentId, { cols: term.cols, rows: term.rows });
    } catch (err) {
      if (stopped) return;
      term.dispose();
      host.replaceChildren();
      current.current = null;
      setPhase({ kind: 'failed', error: errorText(err) });
      return;
    }
    if (stopped) return;

    const url = new URL(opened.url, window.location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(url);
    ws.binaryType = 'arraybuffer';
    session.ws = ws;
    let exitCode: number | null = null;
    let sent = { cols: term.cols, rows: term.rows };

    const resize = () => {
      // (A hidden tab has no size: the terminal keeps its own until it is shown again.)
      if (stopped || host.clientWidth === 0) return;
      fit.fit();
      if (ws.readyState === WebSocket.OPEN && (term.cols !== sent.cols || term.rows !== sent.rows)) {
        sent = { cols: term.cols, rows: term.rows };
        ws.send(JSON.stringify({ type: 'resize', ...sent }));
      }
    };
    // The area follows the window (and the page's layout): xterm is fitted to it and the agent's pty told.
    const observer = new ResizeObserver(() => resize());
    observer.observe(host);
    disposers.push(() => observer.disconnect());

    const input = term.onData((data) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(encoder.encode(data));
    });
    // onBinary: bytes xterm produces as a string of char codes 0-255 (some mouse reports), sent as they are.
    const binary = term.onBinary((data) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(Uint8Array.from(data, (c) => c.charCodeAt(0)));
    });
    disposers.push(
      () => input.dispose(),
      () => binary.dispose(),
    );

    ws.onopen = () => {
      setPhase({ kind: 'open' });
      resize();
      term.focus();
    };
    ws.onmessage = (ev: MessageEvent<ArrayBuffer | string>) => {
      if (typeof ev.data !== 'string') {
        term.write(new Uint8Array(ev.data));
        return;
      }
      try {
        const msg = JSON.parse(ev.data) as { type?: string; code?: unknown };
        if (msg.type === 'exit' && typeof msg.code === 'number') exitCode = msg.code;
      } catch {
        /* not a control message of ours: ignored */
      }
    };
    ws.onclose = (ev) => {
      for (const d of disposers) d();
      disposers.length = 0;
      if (stopped) return;
      // The shell's last output stays readable (and selectable); typing goes nowhere now.
      term.options.disableStdin = true;
      term.options.cursorBlink = false;
      setPhase({ kind: 'ended', why: endedText(ev.reason || (closedHere ? 'closed' : ''), exitCode) });
    };
  };

  const ended = phase.kind === 'ended' || phase.kind === 'failed';
  return (
    <div className="terminal-panel">
      <div className="terminal-actions">
        {(phase.kind === 'idle' || ended) && (
          <button type="button" disabled={offline} aria-describedby={offline ? 'terminal-offline' : undefined} onClick={() => void start()}>
            {phase.kind === 'idle' ? 'Open terminal' : 'Reconnect'}
          </button>
        )}
        {phase.kind === 'open' && (
          <button type="button" className="secondary outline" onClick={() => current.current?.close()}>
            Close session
          </button>
        )}
        {offline && (
          <span id="terminal-offline" className="muted">
            The agent is offline: a terminal needs it connected.
          </span>
        )}
        {phase.kind === 'opening' && <span aria-busy="true">Opening a session…</span>}
        {phase.kind === 'open' && <span className="muted small">Copy: select, then Ctrl+Shift+C · Paste: Ctrl+Shift+V or the context menu</span>}
      </div>
      {phase.kind === 'ended' && (
        <p role="status" className="terminal-ended">
          {phase.why}
        </p>
      )}
      {phase.kind === 'failed' && (
        <p role="alert" className="error">
          {phase.error}
        </p>
      )}
      <div ref={area} className={`terminal-area${phase.kind === 'idle' || phase.kind === 'failed' ? ' terminal-area-empty' : ''}`} />
    </div>
  );
}
