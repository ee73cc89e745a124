// A real OpenID provider for the tests (panva's oidc-provider, ESM-only, so a child process): listens on
// 127.0.0.1:0 and prints `listening <port>`. Its accounts and the account that signs in next are set through
// /__test/ routes (a test-only login: the interaction page signs in the chosen account at once, and consent is
// granted for the first-party client). Configuration (JSON in OIDC_TEST_CONFIG): { clients: [...], accounts: {sub: claims} }.
//
// With "fake": true it is instead a hand-made issuer (discovery, JWKS, authorize, token) whose token endpoint issues
// ID tokens made with jose in a chosen mode — good, wrong_nonce, other_key (signed by a key not in its JWKS),
// expired — which oidc-provider cannot be made to issue.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';

const config = JSON.parse(process.env.OIDC_TEST_CONFIG ?? '{}');
const state = { next: null, accounts: config.accounts ?? {}, mode: 'good' };

const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = server.address().port;
const issuer = `http://127.0.0.1:${port}`;

async function body(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8');
}

/** The /__test/ routes: who signs in next, the accounts' claims, the fake's mode. Answers true when it handled the request. */
async function control(req, res) {
  const url = new URL(req.url, issuer);
  if (!url.pathname.startsWith('/__test/')) return false;
  const input = req.method === 'POST' ? JSON.parse((await body(req)) || '{}') : {};
  if (url.pathname === '/__test/next') state.next = input.sub;
  else if (url.pathname === '/__test/account') state.accounts[input.sub] = input.claims;
  else if (url.pathname === '/__test/mode') state.mode = input.mode;
  res.writeHead(204).end();
  return true;
}

if (config.fake) {
  const jose = await import('jose');
  const key = await jose.generateKeyPair('RS256');
  const other = await jose.generateKeyPair('RS256');
  const jwk = { ...(await jose.exportJWK(key.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const codes = new Map();
  server.on('request', async (req, res) => {
    try {
      if (await control(req, res)) return;
      const url = new URL(req.url, issuer);
      const json = (status, value) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (url.pathname === '/.well-known/openid-configuration') {
        return json(200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['client_secret_basic'],
        });
      }
      if (url.pathname === '/jwks') return json(200, { keys: [jwk] });
      if (url.pathname === '/authorize') {
        const code = randomUUID();
        codes.set(code, { nonce: url.searchParams.get('nonce'), clientId: url.searchParams.get('client_id'), sub: state.next });
        const back = new URL(url.searchParams.get('redirect_uri'));
        back.searchParams.set('code', code);
        back.searchParams.set('state', url.searchParams.get('state'));
        return res.writeHead(302, { location: back.href }).end();
      }
      if (url.pathname === '/token' && req.method === 'POST') {
        const form = new URLSearchParams(await body(req));
        const grant = codes.get(form.get('code'));
        codes.delete(form.get('code'));
        if (!grant) return json(400, { error: 'invalid_grant' });
        const now = Math.floor(Date.now() / 1000);
        const claims = { ...state.accounts[grant.sub], nonce: state.mode === 'wrong_nonce' ? 'not-the-nonce-that-was-sent' : grant.nonce };
        const signer = new jose.SignJWT(claims)
          .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
          .setIssuer(issuer)
          .setAudience(grant.clientId)
          .setSubject(grant.sub)
          .setIssuedAt(state.mode === 'expired' ? now - 7200 : now)
          .setExpirationTime(state.mode === 'expired' ? now - 3600 : now + 300);
        const idToken = await signer.sign(state.mode === 'other_key' ? other.privateKey : key.privateKey);
        return json(200, { access_token: randomUUID(), token_type: 'Bearer', expires_in: 300, id_token: idToken });
      }
      res.writeHead(404).end();
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
} else {
  const { default: Provider } = await import('oidc-provider');
  const provider = new Provider(issuer, {
    clients: config.clients,
    async findAccount(_ctx, sub) {
      if (!state.accounts[sub]) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...state.accounts[sub] }) };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    // The claims of the granted scopes in the ID token itself (as Keycloak and Entra ID put groups there).
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['oidc-test-cookie-key-0123456789abcdef'] },
    // A first-party client: consent is granted for whatever it asks.
    async loadExistingGrant(ctx) {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope([...ctx.oidc.requestParamScopes].join(' '));
      await grant.save();
      return grant;
    },
  });
  provider.on('server_error', (_ctx, err) => console.error('provider server_error', err));
  provider.use(async (ctx, next) => {
    if (await control(ctx.req, ctx.res)) {
      ctx.respond = false;
      return;
    }
    const m = /^\/interaction\/([^/]+)$/.exec(ctx.path);
    if (!m) return next();
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    if (details.prompt.name === 'login') {
      if (!state.next) {
        ctx.status = 400;
        ctx.body = 'no account chosen (POST /__test/next)';
        return;
      }
      await provider.interactionFinished(ctx.req, ctx.res, { login: { accountId: state.next } }, { mergeWithLastSubmission: false });
    } else {
      const grant = new provider.Grant({ clientId: details.params.client_id, accountId: details.session.accountId });
      grant.addOIDCScope(details.params.scope);
      await provider.interactionFinished(ctx.req, ctx.res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
    }
    ctx.respond = false;
  });
  server.on('request', provider.callback());
}
console.log(`listening ${port}`);
