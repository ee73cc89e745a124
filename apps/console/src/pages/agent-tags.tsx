import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, errorText, ok } from '../api/http';
import type { AgentDetail } from '../api/schemas';
import { Section } from '../components/bits';
import { when } from '../components/format';

type Change = { tags?: string[]; maintenance?: boolean };

/** PATCH /api/v3/agents/{id}/ and the agent page's copy of the agent replaced by the answer. */
function useAgentChange(agentId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (change: Change) => ok(api.PATCH('/api/v3/agents/{agentId}', { params: { path: { agentId: Number(agentId) } }, body: change })),
    onSuccess: (agent) => qc.setQueryData(['agent', agentId], agent),
  });
}

/** The agent's tags (each removable) and a field to add one, and its maintenance switch; read-only without agents:write. */
export function AgentTagsAndMaintenance({ agent: a, canEdit }: { agent: AgentDetail; canEdit: boolean }) {
  return (
    <Section id="tags" title="Tags and maintenance">
      <AgentTags agent={a} canEdit={canEdit} />
      <Maintenance agent={a} canEdit={canEdit} />
    </Section>
  );
}

function AgentTags({ agent: a, canEdit }: { agent: AgentDetail; canEdit: boolean }) {
  const change = useAgentChange(a.agent_id);
  const [draft, setDraft] = useState('');
  const add = () => {
    const tag = draft.trim();
    if (!tag) return;
    change.mutate({ tags: [...a.tags, tag] }, { onSuccess: () => setDraft('') });
  };
  return (
    <>
      {a.tags.length === 0 ? (
        <p className="muted">No tags.</p>
      ) : (
        <ul className="tags" aria-label="Tags">
          {a.tags.map((tag) => (
            <li key={tag} className="tag">
              {tag}
              {canEdit && (
                <button
                  type="button"
                  className="tag-remove"
                  aria-label={`Remove tag ${tag}`}
                  disabled={change.isPending}
                  onClick={() => change.mutate({ tags: a.tags.filter((t) => t !== tag) })}
                >
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canEdit && (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            add();
          }}
        >
          <label>
            New tag
            <input value={draft} maxLength={64} onChange={(e) => setDraft(e.target.value)} placeholder="finance" />
          </label>
          <button type="submit" disabled={change.isPending || !draft.trim()}>
            Add tag
          </button>
        </form>
      )}
      {change.isError && (
        <p role="alert" className="error">
          {errorText(change.error)}
        </p>
      )}
    </>
  );
}

function Maintenance({ agent: a, canEdit }: { agent: AgentDetail; canEdit: boolean }) {
  const change = useAgentChange(a.agent_id);
  const state = a.maintenance
    ? a.maintenance_until
      ? `In maintenance (policy window) until ${when(a.maintenance_until)}: checks run and record, no alert opens, no notification is sent.`
      : 'In maintenance: checks run and record, no alert opens, no notification is sent.'
    : 'Not in maintenance: alerts and notifications as usual.';
  return (
    <div className="maintenance">
      {canEdit && (
        <label>
          <input
            type="checkbox"
            role="switch"
            checked={a.maintenance}
            // inside a policy window the window decides (its job ends it); the switch is the operator's own
            disabled={change.isPending || a.maintenance_until !== null}
            onChange={(e) => change.mutate({ maintenance: e.target.checked })}
          />
          Maintenance
        </label>
      )}
      <p role="status" className="muted" id="maintenance-state">
        {state}
      </p>
      {change.isError && (
        <p role="alert" className="error">
          {errorText(change.error)}
        </p>
      )}
    </div>
  );
}
