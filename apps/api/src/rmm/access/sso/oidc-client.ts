import { Injectable, Logger } from '@nestjs/common';
import * as oidc from 'openid-client';
import type { OidcConfig } from '../../../config/app-config';
import { RuntimeConfig } from '../../../config/runtime-config';
import { OidcFailure } from './oidc-mapping';

/** One sign-in in flight: what the callback checks (stored in auth_challenges, never in the browser). */
export interface OidcFlight {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** What a verified callback gives: the ID token's claims, with the userinfo's groups when the ID token had none. */
export interface OidcIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  groupsClaim: unknown;
}

const CALLBACK_PATH = '/api/v3/auth/oidc/callback';

/**
 * panva's openid-client (v6) over RMM_OIDC_*: discovery from the issuer (cached; tried again after a failure),
 * authorization code with PKCE S256, `state` and `nonce`; the library checks the ID token (signature against the
 * provider's JWKS — enableNonRepudiationChecks —, iss, aud, exp, nonce, and auth_time against max_age). A client secret authenticates at the token
 * endpoint (client_secret_basic when the provider offers it, else client_secret_post); without one the client is
 * public (PKCE only).
 */
@Injectable()
export class OidcClient {
  private readonly logger = new Logger('oidc');
  private discovered: Promise<oidc.Configuration> | null = null;

  constructor(private readonly runtime: RuntimeConfig) {}

  get config(): OidcConfig | null {
    return this.runtime.oidc;
  }

  /** The redirect URI the provider must have registered: PUBLIC_URL + /api/v3/auth/oidc/callback. */
  get redirectUri(): string {
    return new URL(CALLBACK_PATH, this.runtime.publicUrl).href;
  }

  async authorizationUrl(options: { maxAgeZero: boolean }): Promise<{ url: string; flight: OidcFlight }> {
    const config = await this.configuration();
    const flight: OidcFlight = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
    const params: Record<string, string> = {
      redirect_uri: this.redirectUri,
      scope: this.config!.scopes,
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(flight.codeVerifier),
      code_challenge_method: 'S256',
      state: flight.state,
      nonce: flight.nonce,
    };
    // Step-up: the provider must authenticate the user again now, whatever session it has.
    if (options.maxAgeZero) Object.assign(params, { max_age: '0', prompt: 'login' });
    return { url: oidc.buildAuthorizationUrl(config, params).href, flight };
  }

  /** Exchanges the callback's code and verifies the ID token; `query` is the callback's query string (without `?`). */
  async finish(query: string, flight: OidcFlight, maxAgeZero: boolean): Promise<OidcIdentity> {
    const config = await this.configuration();
    const current = new URL(this.redirectUri);
    current.search = query;
    const tokens = await oidc.authorizationCodeGrant(
      config,
      current,
      { pkceCodeVerifier: flight.codeVerifier, expectedState: flight.state, expectedNonce: flight.nonce, idTokenExpected: true, ...(maxAgeZero ? { maxAge: 0 } : {}) },
      { redirect_uri: this.redirectUri },
    );
    const claims = tokens.claims();
    if (!claims) throw new OidcFailure('oidc_failed', 'the token response had no ID token');
    const groupsClaim = this.config!.groupsClaim;
    let groups: unknown = claims[groupsClaim];
    if (groups === undefined && config.serverMetadata().userinfo_endpoint) {
      // Some providers (or a scope-limited ID token) give the groups at userinfo only.
      const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      groups = info[groupsClaim];
    }
    return {
      issuer: claims.iss,
      subject: claims.sub,
      email: typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : null,
      emailVerified: claims.email_verified === true,
      groupsClaim: groups,
    };
  }

  private configuration(): Promise<oidc.Configuration> {
    this.discovered ??= this.discover().catch((err: unknown) => {
      this.discovered = null; // the next sign-in tries again
      throw err;
    });
    return this.discovered;
  }

  private async discover(): Promise<oidc.Configuration> {
    const c = this.config;
    if (!c) throw new OidcFailure('not_configured');
    const issuer = new URL(c.issuer);
    const insecure = issuer.protocol === 'http:';
    const found = await oidc.discovery(issuer, c.clientId, undefined, c.clientSecret ? oidc.ClientSecretPost(c.clientSecret) : oidc.None(), {
      ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
      timeout: 10,
    });
    const metadata = found.serverMetadata();
    const methods = metadata.token_endpoint_auth_methods_supported;
    // Without the list, RFC 8414 says client_secret_basic is the default.
    const basic = !methods || methods.includes('client_secret_basic');
    const auth = c.clientSecret ? (basic ? oidc.ClientSecretBasic(c.clientSecret) : oidc.ClientSecretPost(c.clientSecret)) : oidc.None();
    const config = new oidc.Configuration(metadata, c.clientId, c.clientSecret ? { client_secret: c.clientSecret } : {}, auth);
    if (insecure) oidc.allowInsecureRequests(config);
    // The ID token's signature is checked against the provider's JWKS even though it came straight from the token
    // endpoint (OpenID Connect Core lets a client skip that over TLS; we do not).
    oidc.enableNonRepudiationChecks(config);
    this.logger.log(`discovered ${metadata.issuer} (token endpoint auth: ${c.clientSecret ? (basic ? 'client_secret_basic' : 'client_secret_post') : 'none, PKCE only'})`);
    return config;
  }
}
