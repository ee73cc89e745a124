import { AgentClients } from './agent-clients';

describe('AgentClients (which client an agent belongs to, for the fleet filter)', () => {
  const table = new Map<number, number | null>([
    [1, 10],
    [2, 20],
    [3, null],
  ]);
  const reader = () => {
    const reads: number[][] = [];
    const read = async (ids: number[]) => {
      reads.push(ids);
      return new Map(ids.filter((id) => table.has(id)).map((id) => [id, table.get(id)!] as [number, number | null]));
    };
    return { reads, read };
  };

  it('reads unknown agents together once, then answers from memory; an agent without a client is null', async () => {
    const { reads, read } = reader();
    const clients = new AgentClients(read);
    expect(await Promise.all([clients.of(1), clients.of(2), clients.of(3), clients.of(1)])).toEqual([10, 20, null, 10]);
    expect(reads).toEqual([[1, 2, 3]]);
    expect([clients.peek(1), clients.peek(3), await clients.of(2)]).toEqual([10, null, 20]);
    expect(reads).toHaveLength(1);
  });

  it('does not remember an agent that does not exist (asked again, read again)', async () => {
    const { reads, read } = reader();
    const clients = new AgentClients(read);
    expect(await clients.of(99)).toBeUndefined();
    expect(clients.peek(99)).toBeUndefined();
    expect(await clients.of(99)).toBeUndefined();
    expect(reads).toEqual([[99], [99]]);
  });

  it('takes what it is told (remember) without reading, and forgets the oldest past its bound', async () => {
    const { reads, read } = reader();
    const clients = new AgentClients(read, 2);
    clients.remember(5, 50);
    clients.remember(6, 60);
    clients.remember(5, 51);
    expect([clients.peek(5), clients.peek(6), clients.size]).toEqual([51, 60, 2]);
    clients.remember(7, 70);
    expect([clients.peek(5), clients.peek(6), clients.peek(7), clients.size]).toEqual([undefined, 60, 70, 2]);
    expect(reads).toEqual([]);
  });
});
