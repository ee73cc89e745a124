import { ConfigError, loadConfig } from './app-config';

/** RMM_RECONCILE_SECONDS: how often each instance repairs what a lost message left undone (docs/decisions.md, "Who owns each state"). */
describe('loadConfig: RMM_RECONCILE_SECONDS', () => {
  it('defaults to a minute', () => {
    expect(loadConfig({})).toMatchObject({ reconcileSeconds: 60 });
    expect(loadConfig({ RMM_RECONCILE_SECONDS: '2' })).toMatchObject({ reconcileSeconds: 2 });
  });

  it.each([
    [{ RMM_RECONCILE_SECONDS: '0' }, 'must be a whole number from 1 to 86400, got "0"'],
    [{ RMM_RECONCILE_SECONDS: '1.5' }, 'must be a whole number from 1 to 86400, got "1.5"'],
    [{ RMM_RECONCILE_SECONDS: 'soon' }, 'must be a whole number from 1 to 86400, got "soon"'],
  ])('refuses %j, naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(new ConfigError('RMM_RECONCILE_SECONDS', message));
  });
});

/** RMM_POLICY_RECONCILE_SECONDS: how often the policy engine recomputes every agent (docs/policies.md, "Propagation"). */
describe('loadConfig: RMM_POLICY_RECONCILE_SECONDS', () => {
  it('defaults to a minute', () => {
    expect(loadConfig({})).toMatchObject({ policyReconcileSeconds: 60 });
    expect(loadConfig({ RMM_POLICY_RECONCILE_SECONDS: '5' })).toMatchObject({ policyReconcileSeconds: 5 });
  });

  it('refuses 0, naming the variable', () => {
    expect(() => loadConfig({ RMM_POLICY_RECONCILE_SECONDS: '0' })).toThrow(new ConfigError('RMM_POLICY_RECONCILE_SECONDS', 'must be a whole number from 1 to 86400, got "0"'));
  });
});
