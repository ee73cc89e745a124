import { pathMatcher } from './path-pattern';

describe('pathMatcher (a gateway path as the docs write it)', () => {
  it('matches literal paths, ignoring trailing slashes', () => {
    const agent = pathMatcher('/agent/v1/ws');
    expect(agent('/agent/v1/ws')).toEqual({});
    expect(agent('/agent/v1/ws/')).toEqual({});
    expect(agent('/agent/v1/ws//')).toEqual({});
    expect(agent('/agent/v1/wss')).toBeNull();
    expect(agent('/agent/v1')).toBeNull();
    expect(agent('/agent/v1/ws/x')).toBeNull();
  });

  it('takes a {name} segment as a parameter, as it came (the gateway validates it)', () => {
    const events = pathMatcher('/rmm/{agent_id}/');
    expect(events('/rmm/12/')).toEqual({ agent_id: '12' });
    expect(events('/rmm/12')).toEqual({ agent_id: '12' });
    expect(events('/rmm/abc%20/')).toEqual({ agent_id: 'abc%20' });
    expect(events('/rmm/')).toBeNull();
    expect(events('/rmm//')).toBeNull();
    expect(events('/rmm/12/extra/')).toBeNull();
    expect(events('/nothing-here')).toBeNull();
  });

  it('treats the pattern literally apart from {name}, and refuses a parameter that is not a whole segment', () => {
    expect(pathMatcher('/a.b/{x}')('/aXb/1')).toBeNull();
    expect(() => pathMatcher('/rmm/id-{agent_id}')).toThrow(/whole segment/);
  });
});
