import { useState, type ReactNode } from 'react';
import { errorText } from '../api/http';

/** What an agent that registered and never connected shows instead of its last-seen time (API: never_connected). */
export const NEVER_CONNECTED = 'registered, never connected';

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status}`}>{status}</span>;
}

/** A failed call's message, announced to screen readers. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" className="error">
      {errorText(error)}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return <p aria-busy="true">Loading {what}…</p>;
}

/** A section with its heading as its accessible name; `id` is the section's own (a button's aria-controls names it). */
export function Section({ id, title, children, actions }: { id: string; title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-h`} className="panel">
      <div className="section-head">
        <h2 id={`${id}-h`}>{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/**
 * Copies `text` to the clipboard: the Clipboard API where the page may use it (a secure context: https or
 * localhost), else the selection and execCommand, which works on plain http too.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* fall back below */
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'offscreen';
  document.body.appendChild(area);
  area.select();
  let ok: boolean;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

/** "Copy", then "Copied" (or "Copy failed") for two seconds; `label` names what it copies for screen readers. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <button
      type="button"
      className="secondary copy"
      aria-label={`Copy ${label}`}
      onClick={() => {
        void copyText(text).then((ok) => {
          setState(ok ? 'copied' : 'failed');
          setTimeout(() => setState('idle'), 2000);
        });
      }}
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
    </button>
  );
}
