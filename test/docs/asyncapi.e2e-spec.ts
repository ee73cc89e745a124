import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FLEET_EVENTS, fleetHello, WIRE_EVENTS } from '../../apps/api/src/rmm/events/events-wire';
import { startTestApp, TestApp } from '../utils/test-app';

// js-yaml (a devDependency; @nestjs/swagger uses the same version): its types are not installed.
const { load } = require('js-yaml') as { load(text: string): unknown };

const ROOT = join(__dirname, '..', '..');
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');
type Doc = Record<string, any>;

/** The JSON pointer `#/a/b` in the document (undefined when it names nothing). */
const resolve = (doc: Doc, ref: string): unknown =>
  ref
    .replace(/^#\//, '')
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<any>((node, key) => (node === undefined ? undefined : node[key]), doc);

/** Every `$ref` anywhere in the document. */
const refs = (node: unknown): string[] =>
  Array.isArray(node) ? node.flatMap(refs) : node && typeof node === 'object' ? Object.entries(node).flatMap(([k, v]) => (k === '$ref' ? [String(v)] : refs(v))) : [];

describe('docs/asyncapi.yaml and docs/events.md (the events WebSocket, documented)', () => {
  const text = read('docs/asyncapi.yaml');
  const doc = load(text) as Doc;

  it('is an AsyncAPI 3.0.0 document of the channels /rmm/{agent_id}/ and /rmm/fleet/ with both key schemes and the session cookie, every $ref resolving', () => {
    expect(doc.asyncapi).toBe('3.0.0');
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(doc.channels.agentEvents).toMatchObject({ address: '/rmm/{agent_id}/', parameters: { agent_id: expect.any(Object) } });
    expect(doc.channels.fleetEvents).toMatchObject({ address: '/rmm/fleet/' });
    expect(doc.channels.fleetEvents.parameters).toBeUndefined();
    expect(doc.servers.local).toMatchObject({ protocol: 'ws', host: expect.any(String) });
    expect(doc.components.securitySchemes).toEqual({
      apiKeyHeader: expect.objectContaining({ type: 'httpApiKey', name: 'X-API-KEY', in: 'header' }),
      apiKeyQuery: expect.objectContaining({ type: 'httpApiKey', name: 'api_key', in: 'query' }),
      sessionCookie: expect.objectContaining({ type: 'httpApiKey', name: 'rmm_session', in: 'cookie' }),
    });
    expect(doc.operations.sendAgentEvents).toMatchObject({ action: 'send', channel: { $ref: '#/channels/agentEvents' } });
    expect(doc.operations.sendFleetEvents).toMatchObject({ action: 'send', channel: { $ref: '#/channels/fleetEvents' } });
    // the terminal's WebSocket (issue 32, docs/terminal.md): bytes both ways, control messages, refusals and closes
    expect(doc.channels.terminalSession).toMatchObject({ address: '/rmm/terminal/{session_id}/', parameters: { session_id: expect.any(Object) } });
    expect(Object.keys(doc.channels.terminalSession.messages).sort()).toEqual(['terminalError', 'terminalExit', 'terminalInput', 'terminalOutput', 'terminalResize']);
    expect(doc.operations.sendTerminal).toMatchObject({ action: 'send', channel: { $ref: '#/channels/terminalSession' } });
    expect(doc.operations.receiveTerminal).toMatchObject({ action: 'receive', channel: { $ref: '#/channels/terminalSession' } });
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(40);
    for (const ref of all) expect([ref, resolve(doc, ref) !== undefined]).toEqual([ref, true]);
  });

  it('describes every event the server sends (the mapper\'s list), one message each, named as on the wire (the fleet\'s hello apart)', () => {
    const messages = Object.values(doc.components.messages) as Doc[];
    const named = messages.map((m) => m.name).sort();
    expect(named).toEqual([...WIRE_EVENTS, 'hello'].sort());
    for (const m of messages) {
      const own = (m.payload.allOf as Doc[]).find((part) => part.properties?.event);
      expect([m.name, own?.properties.event.const, m.payload.allOf[0]]).toEqual([m.name, m.name, { $ref: '#/components/schemas/Envelope' }]);
    }
    const namesOf = (channel: Doc) => Object.values(channel.messages).map((m: any) => (resolve(doc, m.$ref) as Doc).name);
    expect(namesOf(doc.channels.agentEvents).sort()).toEqual([...WIRE_EVENTS].sort());
    expect(doc.operations.sendAgentEvents.messages).toHaveLength(WIRE_EVENTS.length);
    // the fleet: its own hello (no agent), then the same messages as the agent's channel for the events it relays
    expect(namesOf(doc.channels.fleetEvents).sort()).toEqual(['hello', ...FLEET_EVENTS].sort());
    expect(doc.operations.sendFleetEvents.messages).toHaveLength(FLEET_EVENTS.length + 1);
    expect(doc.channels.fleetEvents.messages.fleetHello).toEqual({ $ref: '#/components/messages/fleetHello' });
    const hello = (doc.components.messages.fleetHello.payload.allOf as Doc[])[1].properties;
    const sent = fleetHello({ agents: 0, clients: null }, new Date());
    expect([hello.agent_id, Object.keys(hello.data.properties).sort()]).toEqual([{ type: 'null' }, Object.keys(sent.data as object).sort()]);
    expect(sent.agent_id).toBeNull();
    for (const event of FLEET_EVENTS) {
      const key = Object.keys(doc.channels.fleetEvents.messages).find((k) => (resolve(doc, doc.channels.fleetEvents.messages[k].$ref) as Doc).name === event)!;
      expect([event, doc.channels.fleetEvents.messages[key]]).toEqual([event, doc.channels.agentEvents.messages[key]]);
    }
  });

  it("names every event in docs/events.md's table", () => {
    const prose = read('docs/events.md');
    for (const event of WIRE_EVENTS) expect([event, prose.includes(`| \`${event}\` |`)]).toEqual([event, true]);
  });

  it('passes Spectral\'s AsyncAPI rules (.spectral-asyncapi.yaml), warnings and hints included', () => {
    const r = spawnSync(join(ROOT, 'node_modules', '.bin', 'spectral'), ['lint', '--ruleset', '.spectral-asyncapi.yaml', '--format', 'json', '--fail-severity', 'hint', 'docs/asyncapi.yaml'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, NO_COLOR: '1' },
    });
    const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
    const findings = JSON.parse(out.slice(out.indexOf('['), out.lastIndexOf(']') + 1)) as Array<{ code: string; message: string; path: string[] }>;
    expect(findings.map((f) => `${f.code} at ${f.path.join('.')}: ${f.message}`)).toEqual([]);
    expect(r.status).toBe(0);
  }, 60_000);

  describe('served', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(async () => {
      await t?.close();
    });

    it('at /docs/asyncapi.yaml (the committed file, as YAML), linked from the Swagger page\'s description; other /docs files stay 404', async () => {
      const res = await t.http.get('/docs/asyncapi.yaml').buffer(true).parse((r, done) => {
        let body = '';
        r.setEncoding('utf8');
        r.on('data', (c: string) => (body += c));
        r.on('end', () => done(null, body));
      });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/yaml; charset=utf-8');
      expect(res.body).toBe(text);
      const openapi = await t.http.get('/docs/openapi.json');
      expect(openapi.body.info.description).toContain('[/docs/asyncapi.yaml](/docs/asyncapi.yaml)');
      expect(JSON.parse(read('docs/openapi.json')).info.description).toBe(openapi.body.info.description);
      for (const path of ['/docs/asyncapi.json', '/docs/events.md', '/docs/asyncapi.yaml/x']) expect([path, (await t.http.get(path)).status]).toEqual([path, 404]);
    });
  });
});
