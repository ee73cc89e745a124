import { changeEntry, ChangeActor } from './audit-change';

describe('audit change rows', () => {
  const actor: ChangeActor = { kind: 'operator', id: '7', name: 'tech@example.com', method: 'POST', action: 'POST /api/v3/agents/tags/', address: '10.0.0.5', requestId: 'req-1' };

  it('names the actor and the request, the resource as target, and carries only what changed in `changes`', () => {
    const at = new Date('2026-11-28T12:00:00.000Z');
    expect(changeEntry(actor, { target: '/api/v3/agents/42/', before: { tags: ['a'] }, after: { tags: ['a', 'b'] } }, at)).toEqual({
      at,
      actorKind: 'operator',
      actorId: '7',
      actorName: 'tech@example.com',
      method: 'POST',
      action: 'POST /api/v3/agents/tags/',
      target: '/api/v3/agents/42/',
      clientAddress: '10.0.0.5',
      status: null,
      outcome: 'changed',
      changes: { before: { tags: ['a'] }, after: { tags: ['a', 'b'] } },
      requestId: 'req-1',
    });
  });
});
