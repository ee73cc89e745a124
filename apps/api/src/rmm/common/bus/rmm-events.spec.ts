import { Logger } from '@nestjs/common';
import { LocalRmmEvents } from './rmm-events';

describe('LocalRmmEvents', () => {
  it('delivers an event to each subscriber of its name, and none after unsubscribing', () => {
    const bus = new LocalRmmEvents();
    const seen: number[] = [];
    const other: number[] = [];
    const off = bus.on('agent.online', (e) => seen.push(e.agentId));
    bus.on('agent.offline', (e) => other.push(e.agentId));
    bus.emit('agent.online', { agentId: 1 });
    off();
    bus.emit('agent.online', { agentId: 2 });
    expect(seen).toEqual([1]);
    expect(other).toEqual([]);
  });

  it('keeps a failing subscriber from reaching the publisher or the other subscribers, and logs it', () => {
    // (the ERROR line is asserted here rather than printed in the middle of `npm test`)
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const bus = new LocalRmmEvents();
    const seen: number[] = [];
    bus.on('apikey.revoked', () => {
      throw new Error('subscriber bug');
    });
    bus.on('apikey.revoked', (e) => seen.push(e.keyId));
    expect(() => bus.emit('apikey.revoked', { keyId: 9 })).not.toThrow();
    expect(seen).toEqual([9]);
    expect(logged.mock.calls).toEqual([['handler of apikey.revoked failed: subscriber bug']]);
    logged.mockRestore();
  });
});
