import { createOperator, OPERATOR_PASSWORD } from '../utils/operators';
import { createTenant, insertAgent } from '../utils/rmm-fixtures';
import { jsonBodyOf, OpenApiDoc, operationsOf } from '../utils/openapi-doc';
import { startTestApp, TestApp } from '../utils/test-app';

/**
 * `null` for each body field of every POST, PUT and PATCH of /api/v3 in the served OpenAPI document: never a
 * 5xx; a field the document does not mark nullable is refused with the surface's 400 naming it
 * (`<field> must not be null`), nothing else refused; a nullable one is taken (2xx with an otherwise valid body).
 * Each field is sent twice: alone, and in an otherwise valid body.
 */
const ADMIN = 'null-fields-admin-key-0123456789abcdef';
const WRITES = new Set(['post', 'put', 'patch']);

/** The request bodies' nullable fields, as decided per column and service (the report of #18 lists why). */
const NULLABLE = [
  'CreateApiKeyDto.clients',
  'CreateApiKeyDto.expires_at',
  'CreateCustomFieldDto.default',
  'CreateDeploymentDto.install_flags',
  'CreateDeploymentDto.max_registrations',
  'CreateOperatorDto.clients',
  'CreatePolicyDto.description',
  'CreateScriptDto.description',
  'PatchCustomFieldDto.default',
  'PatchNotificationDto.headers',
  'PatchNotificationDto.secret',
  'PreviewPolicyDto.description',
  'UpdateOperatorDto.clients',
  'UpdatePolicyDto.description',
  'UpdateScriptDto.description',
];

describe('null for a field of a request body', () => {
  let t: TestApp;
  let doc: OpenApiDoc;
  let n = 0;
  const unique = (what: string): string => `${what} ${++n}`;
  const ids: Record<string, number> = {};
  /** An otherwise valid body for each write operation of /api/v3 (its fixtures made in beforeAll). */
  let valid: Record<string, () => Record<string, unknown>>;
  /** The id each path parameter takes, per path. */
  const paramsOf = (path: string): Record<string, number> => ({
    id: path.startsWith('/api/v3/custom-fields') ? ids.customField : path.startsWith('/api/v3/policies') ? ids.policy : path.startsWith('/api/v3/notifications') ? ids.notification : path.startsWith('/api/v3/operators') ? ids.operator : path.startsWith('/api/v3/clients') ? ids.client : path.startsWith('/api/v3/scripts') ? ids.script : path.startsWith('/api/v3/checks') ? ids.check : ids.task,
    siteId: ids.site,
    agentId: ids.agent,
  });
  const admin = { 'X-API-KEY': ADMIN };

  beforeAll(async () => {
    // (RMM_NOTIFY_ALLOW_PRIVATE: the channels point at 127.0.0.1; nothing here makes an event they would carry)
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_RATE_LIMIT_PER_MINUTE: '100000', RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '100000', RMM_NOTIFY_ALLOW_PRIVATE: 'true' });
    doc = (await t.http.get('/docs/openapi.json')).body as OpenApiDoc;
    const { clientId, siteId } = await createTenant(t, 'Null Co');
    Object.assign(ids, { client: clientId, site: siteId, agent: await insertAgent(t, { hostname: 'null-ws-01', clientId, siteId }) });
    ids.script = (await t.http.post('/api/v3/scripts/').set(admin).send({ name: 'Null target', shell: 'bash', body: 'echo hi' }).expect(201)).body.id;
    const check = { agent: String(ids.agent), check_type: 'diskspace', settings: { drive: '/', threshold_percent: 10 } };
    ids.check = (await t.http.post('/api/v3/checks/').set(admin).send(check).expect(201)).body.id;
    const task = () => ({ name: unique('task'), agent: String(ids.agent), script: ids.script, schedule: '0 3 * * *' });
    ids.task = (await t.http.post('/api/v3/tasks/').set(admin).send(task()).expect(201)).body.id;
    ids.operator = await createOperator(t, 'null-fields@ops.test', 'technician');
    const channel = () => ({ name: unique('channel'), type: 'webhook', url: 'http://127.0.0.1:9/hook', min_severity: 'info', events: ['alert.created'] });
    ids.notification = (await t.http.post('/api/v3/notifications/').set(admin).send(channel()).expect(201)).body.id;
    const field = () => ({ name: `f_${++n}`, label: 'Field', scope: 'agent', type: 'text' });
    ids.customField = (await t.http.post('/api/v3/custom-fields/').set(admin).send(field()).expect(201)).body.id;
    const policy = () => ({ name: unique('policy'), targets: { clients: [ids.client] }, checks: [], tasks: [] });
    ids.policy = (await t.http.post('/api/v3/policies/').set(admin).send(policy()).expect(201)).body.id;
    const named = (what: string) => () => ({ name: unique(what) });
    const none = () => ({});
    valid = {
      'POST /api/v3/keys': () => ({ name: unique('key'), scopes: ['agents:read'] }),
      'POST /api/v3/clients': named('client'),
      'PUT /api/v3/clients/{id}': named('client'),
      'PATCH /api/v3/clients/{id}': named('client'),
      'POST /api/v3/clients/{id}/sites': named('site'),
      'PUT /api/v3/clients/{id}/sites/{siteId}': named('site'),
      'POST /api/v3/agents/deployments': () => ({ client: ids.client, site: ids.site }),
      'POST /api/v3/agents/{agentId}/runscript': () => ({ script: ids.script, output: 'forget' }),
      'POST /api/v3/agents/{agentId}/terminal': () => ({ cols: 80, rows: 24 }),
      'POST /api/v3/scripts': () => ({ name: unique('script'), shell: 'bash', body: 'echo hi' }),
      'PUT /api/v3/scripts/{id}': none,
      'PATCH /api/v3/scripts/{id}': none,
      'POST /api/v3/checks': () => check,
      'PUT /api/v3/checks/{id}': none,
      'PATCH /api/v3/checks/{id}': none,
      'POST /api/v3/tasks': task,
      'PUT /api/v3/tasks/{id}': none,
      'PATCH /api/v3/tasks/{id}': none,
      'POST /api/v3/auth/login': () => ({ email: 'null-fields@ops.test', password: OPERATOR_PASSWORD }),
      'POST /api/v3/auth/passkeys': () => ({ challenge_id: 'none', response: {} }),
      'PATCH /api/v3/auth/passkeys/{id}': named('passkey'),
      'POST /api/v3/auth/passkeys/sign-in': () => ({ challenge_id: 'none', response: {} }),
      'POST /api/v3/auth/passkeys/step-up': () => ({ challenge_id: 'none', response: {} }),
      'POST /api/v3/auth/reauth': () => ({ password: OPERATOR_PASSWORD }),
      'POST /api/v3/operators': () => ({ email: `op${++n}@ops.test`, password: 'long enough pw', role: 'viewer' }),
      'PATCH /api/v3/operators/{id}': none,
      'POST /api/v3/notifications': channel,
      'PATCH /api/v3/notifications/{id}': none,
      'POST /api/v3/custom-fields': field,
      'PATCH /api/v3/custom-fields/{id}': none,
      'PUT /api/v3/agents/{agentId}/custom-fields': none,
      'PUT /api/v3/clients/{id}/custom-fields': none,
      'PUT /api/v3/clients/{id}/sites/{siteId}/custom-fields': none,
      'PATCH /api/v3/agents/{agentId}': () => ({ tags: ['null-fields'] }),
      'POST /api/v3/agents/tags': () => ({ agents: [String(ids.agent)], add: ['null-fields'] }),
      'POST /api/v3/policies': policy,
      'PATCH /api/v3/policies/{id}': none,
      'POST /api/v3/policies/preview': policy,
      'PUT /api/v3/agents/{agentId}/policy-overrides': none,
      'POST /api/v3/agents/{agentId}/files/uploads': () => ({ path: '/tmp/null-fields.bin', size: 1, sha256: '0'.repeat(64) }),
    };
  });
  afterAll(async () => {
    await t?.close();
  });

  // (JSON bodies: an upload's chunk is raw bytes, application/octet-stream, with no fields to be null)
  const writes = () => operationsOf(doc).filter(({ path, method, op }) => path.startsWith('/api/v3') && WRITES.has(method) && op.requestBody?.content['application/json']);

  it('knows an otherwise valid body for every write operation of /api/v3 the document lists', () => {
    expect(writes().map(({ path, method }) => `${method.toUpperCase()} ${path}`).sort()).toEqual(Object.keys(valid).sort());
  });

  it('documents as nullable exactly the body fields that may be null', () => {
    // (a free-form body, the custom fields' {name: value}, has no named fields: no $ref)
    const named = writes().filter(({ op }) => op.requestBody!.content['application/json'].schema.$ref !== undefined);
    const nullable = [...new Set(named.map(({ op }) => op.requestBody!.content['application/json'].schema.$ref!.split('/').pop()!))].flatMap((name) =>
      Object.entries(doc.components.schemas[name].properties ?? {})
        .filter(([, s]) => s.nullable)
        .map(([field]) => `${name}.${field}`),
    );
    expect(nullable.sort()).toEqual(NULLABLE);
  });

  it('answers null for each field with 400 naming it where it may not be null, takes it where it may, never a 5xx', async () => {
    const problems: string[] = [];
    let sent = 0;
    let fivexx = 0;
    for (const { path, method, op } of writes()) {
      const name = `${method.toUpperCase()} ${path}`;
      const url = path.replace(/\{(\w+)\}/g, (_, p: string) => String(paramsOf(path)[p]));
      for (const [field, schema] of Object.entries(jsonBodyOf(doc, op)?.properties ?? {})) {
        const message = `${field} must not be null`;
        const base = valid[name]();
        // (Where the valid body has no other field, the field alone is the valid body.)
        const variants: Array<[string, Record<string, unknown>]> = Object.keys(base).every((k) => k === field)
          ? [['in a valid body', { [field]: null }]]
          : [['alone', { [field]: null }], ['in a valid body', { ...base, [field]: null }]];
        for (const [how, body] of variants) {
          const res = await t.http[method as 'post' | 'put' | 'patch'](`${url}/`).set(admin).send(body);
          sent++;
          const errors = (res.body as { errors?: Array<{ field: string; message: string }> }).errors ?? [];
          const naming = errors.filter((e) => e.field === field);
          const seen = `${name} ${field}: null ${how} → ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`;
          if (res.status >= 500) {
            fivexx++;
            problems.push(seen);
          } else if (!schema.nullable) {
            const right = res.status === 400 && res.body.detail === 'validation error' && naming.length === 1 && naming[0].message === message;
            // In a valid body, the null is the only thing refused.
            if (!right || (how === 'in a valid body' && errors.length !== 1)) problems.push(seen);
          } else if (naming.length > 0 || (how === 'in a valid body' && !(res.status >= 200 && res.status < 300))) {
            problems.push(seen);
          }
        }
      }
    }
    const errorLogs = t.logs.filter((l) => /"level":"(error|fatal)"/.test(l));
    console.log(`null-fields: ${sent} requests, ${fivexx} answered 5xx, ${problems.length} wrong; ${errorLogs.length} error-log lines`);
    expect(sent).toBeGreaterThan(60);
    expect(problems).toEqual([]);
    expect(errorLogs.slice(0, 3)).toEqual([]);
  });
});
