import { lazy, Suspense, useRef, useState, type KeyboardEvent } from 'react';
import { canHands } from '../api/hands';
import { useSession } from '../api/session';
import { Section } from '../components/bits';

// Each tab's code (xterm.js; the hashing library) is loaded when the tab is first opened, not with the console.
const TerminalPanel = lazy(() => import('./agent-terminal'));
const FilesPanel = lazy(() => import('./agent-files'));

type Tab = 'terminal' | 'files';
const LABELS: Record<Tab, string> = { terminal: 'Terminal', files: 'Files' };

/**
 * The agent page's remote access (issue 32): a Terminal tab (scope `terminal`) and a Files tab (`files:read`;
 * uploading needs `files:write`), each shown only to an operator with its scope. A tab opened once stays mounted
 * while the other is shown, so switching to Files does not end a terminal session.
 */
export function AgentRemoteAccess({ agentId, offline }: { agentId: string; offline: boolean }) {
  const { can } = useSession();
  const tabs = (['terminal', 'files'] as const).filter((t) => canHands(can, t === 'terminal' ? 'terminal' : 'files:read'));
  const [selected, setSelected] = useState<Tab | null>(null);
  const [opened, setOpened] = useState<ReadonlySet<Tab>>(new Set());
  const buttons = useRef<Partial<Record<Tab, HTMLButtonElement | null>>>({});
  if (tabs.length === 0) return null;

  const choose = (tab: Tab, focus = false) => {
    setSelected(tab);
    setOpened((o) => (o.has(tab) ? o : new Set([...o, tab])));
    if (focus) buttons.current[tab]?.focus();
  };
  // The tab list's keys (WAI-ARIA tabs pattern): arrows move between tabs, Home and End to the ends.
  const onKey = (e: KeyboardEvent, at: number) => {
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    choose(tabs[(to + tabs.length) % tabs.length], true);
  };
  const id = (tab: Tab, part: 'tab' | 'panel') => `agent-${agentId}-${tab}-${part}`;

  return (
    <Section id="remote-access" title="Remote access">
      <div role="tablist" aria-label="Remote access" className="tabs">
        {tabs.map((tab, i) => (
          <button
            key={tab}
            ref={(el) => {
              buttons.current[tab] = el;
            }}
            type="button"
            role="tab"
            id={id(tab, 'tab')}
            aria-selected={selected === tab}
            aria-controls={selected === tab ? id(tab, 'panel') : undefined}
            tabIndex={selected === tab || (selected === null && i === 0) ? 0 : -1}
            className={selected === tab ? 'tab tab-selected' : 'tab'}
            onClick={() => choose(tab)}
            onKeyDown={(e) => onKey(e, i)}
          >
            {LABELS[tab]}
          </button>
        ))}
      </div>
      {selected === null && <p className="muted">A shell on the agent, or its files: choose a tab.</p>}
      {tabs.map(
        (tab) =>
          opened.has(tab) && (
            <div key={tab} role="tabpanel" id={id(tab, 'panel')} aria-labelledby={id(tab, 'tab')} hidden={selected !== tab} className="tab-panel">
              <Suspense fallback={<p aria-busy="true">Loading {LABELS[tab].toLowerCase()}…</p>}>
                {tab === 'terminal' ? <TerminalPanel agentId={agentId} offline={offline} /> : <FilesPanel agentId={agentId} canWrite={canHands(can, 'files:write')} />}
              </Suspense>
            </div>
          ),
      )}
    </Section>
  );
}
