import { SentLists } from './sent-lists';

describe('SentLists: which connected agents get their check list again', () => {
  it('none while each agent holds the list it was sent', () => {
    const sent = new SentLists();
    sent.record(1, 'a');
    sent.record(2, '');
    expect(sent.stale([1, 2], new Map([[1, 'a']]), '')).toEqual([]);
  });

  it('an agent whose list changed since, or lost all its checks, or gained its first', () => {
    const sent = new SentLists();
    sent.record(1, 'a');
    sent.record(2, 'b');
    sent.record(3, '');
    expect(sent.stale([1, 2, 3], new Map([[1, 'a2'], [3, 'c']]), '')).toEqual([1, 2, 3]);
  });

  it('an agent never sent a list on this connection (a send that failed, a lost notify), and one whose connection restarted', () => {
    const sent = new SentLists();
    sent.record(1, 'a');
    sent.record(2, 'b');
    sent.forget(2);
    expect(sent.stale([1, 2, 3], new Map([[1, 'a'], [2, 'b']]), '')).toEqual([2, 3]);
  });

  it('only the agents held here: an agent not held is never re-sent', () => {
    const sent = new SentLists();
    sent.record(1, 'a');
    expect(sent.stale([], new Map([[1, 'changed']]), '')).toEqual([]);
  });
});
