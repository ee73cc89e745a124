import { Client } from 'pg';
import { dataSourceOptions, PoolClient } from './data-source';

describe("the pool's clients", () => {
  it("survive an 'error' that nothing else listens for (a connection PostgreSQL ended between two statements)", () => {
    const ended = new Error('terminating connection due to unexpected postmaster exit');
    // node-postgres's own client would end the process with it
    expect(() => new Client('postgres://127.0.0.1:1/x').emit('error', ended)).toThrow('terminating connection');
    expect(() => new PoolClient('postgres://127.0.0.1:1/x').emit('error', ended)).not.toThrow();
  });

  it("are the pool's in every data source (the server's, with its pool size; the migrations'; the drift check's)", () => {
    const extraOf = (o: object) => (o as { extra: Record<string, unknown> }).extra;
    expect(extraOf(dataSourceOptions('postgres://127.0.0.1:1/x'))).toEqual({ Client: PoolClient });
    expect(extraOf(dataSourceOptions('postgres://127.0.0.1:1/x', { extra: { max: 7 } }))).toEqual({ Client: PoolClient, max: 7 });
  });
});
