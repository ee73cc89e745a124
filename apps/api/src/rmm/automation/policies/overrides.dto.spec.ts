import { parseOverrides } from './overrides.dto';

describe('parseOverrides: the PUT body of an agent\'s policy overrides', () => {
  it('takes a list of overrides as given', () => {
    expect(parseOverrides([{ policy: 3, key: 'memory', disabled: true }, { policy: 4, key: 'ping:gw', run_interval: 300, settings: { target: 'gw2' } }])).toEqual([
      expect.objectContaining({ policy: 3, key: 'memory', disabled: true }),
      expect.objectContaining({ policy: 4, key: 'ping:gw', run_interval: 300, settings: { target: 'gw2' } }),
    ]);
    expect(parseOverrides([])).toEqual([]);
  });

  it.each([
    [{ policy: 3, key: 'memory' }, 'body'],
    [[null], '[0]'],
    [[{ key: 'memory' }], '[0].policy'],
    [[{ policy: 3, key: '' }], '[0].key'],
    [[{ policy: 3, key: 'memory', disabled: 'yes' }], '[0].disabled'],
    [[{ policy: 3, key: 'memory', run_interval: 4 }], '[0].run_interval'],
    [[{ policy: 3, key: 'memory', fails_b4_alert: 101 }], '[0].fails_b4_alert'],
    [[{ policy: 3, key: 'memory', settings: [] }], '[0].settings'],
  ])('refuses %j with a 400 naming %s', (body, field) => {
    expect(() => parseOverrides(body)).toThrow(expect.objectContaining({ code: 'validation', fields: expect.arrayContaining([expect.objectContaining({ field })]) }));
  });
});
