// Generated from docs/openapi.json by openapi-typescript 7.13.0: do not edit. `npm run openapi` writes the
// document and then this file again; test/docs/console-types.e2e-spec.ts fails when this one is stale.
export interface paths {
    "/agent/v1/ping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Check an agent's credentials without connecting: registers no presence (the agent stays as it is in the console, no event, no notification)
         * @description Needs the agent's credentials from its state.json: `X-Agent-Id` and `Authorization: Bearer <agent secret>`, as the channel's upgrade. `rmm-agent status` calls it (docs/agent-protocol.md, "Checking the credentials without connecting"). Errors: {detail}.
         */
        get: operations["agentPingPing"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness: the process is up.
         * @description No credentials. Used by load balancers and orchestrators.
         */
        get: operations["healthLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: the database is reachable (200, else 503); the jobs failing in a row here, named; open files near the limit.
         * @description No credentials. Used by load balancers and orchestrators.
         */
        get: operations["healthReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/v1/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in (grant_type=password) or refresh a session (grant_type=refresh_token)
         * @description Needs the apikey (Authorize: data-key). Errors: GoTrue's body.
         */
        post: operations["authToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/v1/user": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The user of the bearer access token
         * @description Needs the apikey and the user's access token (Authorize: data-key and user-jwt). Errors: GoTrue's body.
         */
        get: operations["authUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/v1/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End the bearer's session (scope=local), all of the user's (global, the default) or all others
         * @description Needs the apikey and the user's access token (Authorize: data-key and user-jwt). Errors: GoTrue's body.
         */
        post: operations["authLogout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/v1/admin/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List users (service-role key), page and per_page
         * @description Needs DATA_SERVICE_ROLE_KEY as the apikey (Authorize: data-key). Errors: GoTrue's body.
         */
        get: operations["authAdminList"];
        put?: never;
        /**
         * Create a user (service-role key). No user_profiles row is made: insert it through /rest/v1.
         * @description Needs DATA_SERVICE_ROLE_KEY as the apikey (Authorize: data-key). Errors: GoTrue's body.
         */
        post: operations["authAdminCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/v1/admin/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One user (service-role key)
         * @description Needs DATA_SERVICE_ROLE_KEY as the apikey (Authorize: data-key). Errors: GoTrue's body.
         */
        get: operations["authAdminGet"];
        put?: never;
        post?: never;
        /**
         * Delete a user with their profile, sessions and enrollment rows (service-role key)
         * @description Needs DATA_SERVICE_ROLE_KEY as the apikey (Authorize: data-key). Errors: GoTrue's body.
         */
        delete: operations["authAdminDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rest/v1/{table}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read rows: select=, filters (eq, neq, gt, gte, lt, lte, in, is, like, ilike), order, limit, offset
         * @description Needs the apikey, a user's access token, or both (Authorize: data-key, user-jwt); row-level security decides what the role sees. Errors: PostgREST's body.
         */
        get: operations["restRead"];
        put?: never;
        /**
         * Insert one row or an array (Prefer: return=representation, resolution=merge-duplicates)
         * @description Needs the apikey, a user's access token, or both (Authorize: data-key, user-jwt); row-level security decides what the role sees. Errors: PostgREST's body.
         */
        post: operations["restInsert"];
        /**
         * Delete the rows the filters match
         * @description Needs the apikey, a user's access token, or both (Authorize: data-key, user-jwt); row-level security decides what the role sees. Errors: PostgREST's body.
         */
        delete: operations["restRemove"];
        options?: never;
        head?: never;
        /**
         * Update the rows the filters match: 204 with Content-Range, or 200 with Prefer: return=representation
         * @description Needs the apikey, a user's access token, or both (Authorize: data-key, user-jwt); row-level security decides what the role sees. Errors: PostgREST's body.
         */
        patch: operations["restUpdate"];
        trace?: never;
    };
    "/functions/v1/enroll-rmm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Issue a 24-hour agent deployment for the caller's tenant
         * @description Needs the user's access token (Authorize: user-jwt). Checks run in this order: method (405), bearer token (401), profile (404), body JSON (400), fields (400), backend call (502). hostname is at most 255 characters and platform 32, neither with control characters (400). A user gets ENROLL_RATE_LIMIT_PER_USER_PER_MINUTE enrollments a minute (429 with Retry-After). Errors: {error}.
         */
        post: operations["enrollRmm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/functions/v1/enroll-rmm/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's own enrollment by deployment uuid
         * @description Poll it after running the installer: pending until the agent registers, then completed with its agent_id. Needs the user's access token (Authorize: user-jwt), no backend key. Errors: {error}.
         */
        get: operations["enrollmentStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List active alerts (resolved=true: resolved ones); filters agent, severity, alert_type, snoozed. Scope: alerts:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope alerts:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["alertsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/alerts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One alert. Scope: alerts:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope alerts:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["alertsGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/alerts/{id}/acknowledge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mark an alert seen, not resolved (records the key name and time; the first acknowledgement stays). Scope: alerts:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope alerts:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        post: operations["alertsAcknowledge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/alerts/{id}/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resolve an alert: it leaves the active list. Scope: alerts:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope alerts:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        post: operations["alertsResolve"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys (never their secrets); a caller limited to some clients sees only keys limited within them. Scope: admin
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["apiKeysList"];
        put?: never;
        /**
         * Create an API key, limited to some clients or not (clients); the answer shows its secret once. Scope: admin
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope admin, or a console session whose role has it. Errors: {detail}.
         */
        post: operations["apiKeysCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One API key (never its secret); 404 for a key the caller does not manage. Scope: admin
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["apiKeysGet"];
        put?: never;
        post?: never;
        /**
         * Revoke an API key (it answers 401 from now on); 404 for a key the caller does not manage. Scope: admin
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope admin, or a console session whose role has it. Errors: {detail}.
         */
        delete: operations["apiKeysRevoke"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign an operator in: sets the HttpOnly cookie rmm_session (SameSite=Strict)
         * @description No credentials: the email and password (and TOTP code) are. Sets the rmm_session cookie. Errors: {detail}.
         */
        post: operations["operatorAuthLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/auth/methods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How an operator may sign in here (public: the sign-in page asks first): password, the OpenID provider (its button label), passkeys
         * @description Needs the rmm_session cookie of a signed-in operator. Errors: {detail}.
         */
        get: operations["operatorAuthMethods"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The signed-in operator (by the rmm_session cookie): role, clients and scopes; when the session last authenticated, and the account's methods (password, TOTP, passkeys, single sign-on)
         * @description Needs the rmm_session cookie of a signed-in operator. Errors: {detail}.
         */
        get: operations["operatorAuthMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/auth/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether the request carries a live session, and its operator: 200 {signed_in: false, operator: null} when it does not (a page asks this first, so a signed-out visit logs no 401 in the browser's console); an API key is not a session
         * @description Needs the rmm_session cookie of a signed-in operator. Errors: {detail}.
         */
        get: operations["operatorAuthSessionState"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/auth/origin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether the console at a page origin may open the events WebSockets with its session, and if not why and which setting would allow it: a browser learns nothing of a refused upgrade but that it failed, so the console asks (docs/events.md)
         * @description Needs the rmm_session cookie of a signed-in operator. Errors: {detail}.
         */
        get: operations["operatorAuthOrigin"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign out: the session is deleted server-side and the cookie cleared (needs X-Requested-With: rmm-console)
         * @description Needs the rmm_session cookie of a signed-in operator. Errors: {detail}.
         */
        post: operations["operatorAuthLogout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/auth/reauth": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-authenticate the session (step-up) with the operator's password, and its TOTP or recovery code when set up: dangerous actions are allowed for RMM_STEP_UP_MINUTES again
         * @description Needs the rmm_session cookie of a signed-in operator. Errors: {detail}.
         */
        post: operations["accountReauth"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/auth/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The signed-in operator's live sessions (where, which browser, how, when), the current one marked
         * @description Needs the rmm_session cookie of a signed-in operator. Errors: {detail}.
         */
        get: operations["accountSessions"];
        put?: never;
        post?: never;
        /**
         * Sign out everywhere else: every session of yours but the current one ends
         * @description Needs the rmm_session cookie of a signed-in operator. Errors: {detail}.
         */
        delete: operations["accountEndOtherSessions"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/auth/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * End one of your sessions (its WebSockets close); ending the current one signs this browser out (the cookie is cleared)
         * @description Needs the rmm_session cookie of a signed-in operator. Errors: {detail}.
         */
        delete: operations["accountEndSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/auth/totp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set up TOTP for yourself (replacing any earlier one): the otpauth URI and ten recovery codes, shown once
         * @description Needs the rmm_session cookie of a signed-in operator. Errors: {detail}.
         */
        post: operations["accountEnableTotp"];
        /**
         * Remove your TOTP (your password alone signs in again)
         * @description Needs the rmm_session cookie of a signed-in operator. Errors: {detail}.
         */
        delete: operations["accountDisableTotp"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/operators": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List operators. Scope: admin
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["operatorsList"];
        put?: never;
        /**
         * Create an operator (role admin, technician or viewer; optionally limited to some clients). Scope: admin
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope admin, or a console session whose role has it. Errors: {detail}.
         */
        post: operations["operatorsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/operators/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One operator. Scope: admin
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["operatorsGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change an operator's role, clients, password or disabled flag (a password or disabling ends their sessions). Scope: admin
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope admin, or a console session whose role has it. Errors: {detail}.
         */
        patch: operations["operatorsUpdate"];
        trace?: never;
    };
    "/api/v3/operators/{id}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An operator's live sessions (where, which browser, how, when). Scope: admin
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["operatorsSessions"];
        put?: never;
        post?: never;
        /**
         * End every session of an operator at once (their WebSockets close; they sign in again). Scope: admin
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope admin, or a console session whose role has it. Errors: {detail}.
         */
        delete: operations["operatorsEndSessions"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/operators/{id}/totp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set up TOTP for an operator: the otpauth URI and ten recovery codes, shown once. Scope: admin
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope admin, or a console session whose role has it. Errors: {detail}.
         */
        post: operations["operatorsEnableTotp"];
        /**
         * Remove an operator's TOTP (their password alone signs in again). Scope: admin
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope admin, or a console session whose role has it. Errors: {detail}.
         */
        delete: operations["operatorsDisableTotp"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/auth/passkeys/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Begin registering a passkey: the browser's creation options (discoverable, user verification required) and the challenge's id
         * @description Needs the rmm_session cookie of a signed-in operator. Errors: {detail}.
         */
        post: operations["passkeysRegistrationOptions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/auth/passkeys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The signed-in operator's passkeys
         * @description Needs the rmm_session cookie of a signed-in operator. Errors: {detail}.
         */
        get: operations["passkeysList"];
        put?: never;
        /**
         * Register a passkey: the browser's answer to the creation options
         * @description Needs the rmm_session cookie of a signed-in operator. Errors: {detail}.
         */
        post: operations["passkeysRegister"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/auth/passkeys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove one of your passkeys (it no longer signs in)
         * @description Needs the rmm_session cookie of a signed-in operator. Errors: {detail}.
         */
        delete: operations["passkeysRemove"];
        options?: never;
        head?: never;
        /**
         * Rename one of your passkeys
         * @description Needs the rmm_session cookie of a signed-in operator. Errors: {detail}.
         */
        patch: operations["passkeysRename"];
        trace?: never;
    };
    "/api/v3/auth/passkeys/sign-in/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Begin signing in with a passkey alone (public): request options without allowCredentials (discoverable credentials)
         * @description Needs the rmm_session cookie of a signed-in operator. Errors: {detail}.
         */
        post: operations["passkeysSignInOptions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/auth/passkeys/sign-in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with a passkey: sets the HttpOnly cookie rmm_session as POST /api/v3/auth/login does (allowed when RMM_PASSWORD_LOGIN=false)
         * @description Needs the rmm_session cookie of a signed-in operator. Errors: {detail}.
         */
        post: operations["passkeysSignIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/auth/passkeys/step-up/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Begin re-authenticating this session with a passkey (step-up): request options limited to the operator's passkeys
         * @description Needs the rmm_session cookie of a signed-in operator. Errors: {detail}.
         */
        post: operations["passkeysStepUpOptions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/auth/passkeys/step-up": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-authenticate this session with a passkey: dangerous actions are allowed for RMM_STEP_UP_MINUTES again
         * @description Needs the rmm_session cookie of a signed-in operator. Errors: {detail}.
         */
        post: operations["passkeysStepUp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/auth/oidc/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Begin a sign-in at the OpenID provider: 302 there (sets the rmm_oidc cookie for the callback); with step_up=1 and a session, re-authenticate it (max_age=0)
         * @description Needs the rmm_session cookie of a signed-in operator. Errors: {detail}.
         */
        get: operations["oidcLogin"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/auth/oidc/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The provider's redirect back: sets rmm_session and 302 to the page the sign-in began on; any failure 302 to /app/sign-in?error=<code>
         * @description Needs the rmm_session cookie of a signed-in operator. Errors: {detail}.
         */
        get: operations["oidcCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List clients with their sites. Scope: clients:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope clients:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["clientsList"];
        put?: never;
        /**
         * Create a client (and optionally its first site). Scope: admin
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope admin, or a console session whose role has it. Errors: {detail}.
         */
        post: operations["clientsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/clients/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One client with its sites. Scope: clients:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope clients:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["clientsGet"];
        /**
         * Rename a client. Scope: clients:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope clients:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        put: operations["clientsRename"];
        post?: never;
        /**
         * Delete a client with its sites and deployments; refused (400) while it has agents. Scope: admin
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope admin, or a console session whose role has it. Errors: {detail}.
         */
        delete: operations["clientsRemove"];
        options?: never;
        head?: never;
        /**
         * Change a client: its name, and whether its agents update themselves (agent_update auto | off). Scope: clients:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope clients:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        patch: operations["clientsPatch"];
        trace?: never;
    };
    "/api/v3/clients/{id}/sites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a client's sites. Scope: clients:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope clients:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["clientsSites"];
        put?: never;
        /**
         * Create a site under a client. Scope: clients:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope clients:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        post: operations["clientsCreateSite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/clients/{id}/sites/{siteId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Rename a site. Scope: clients:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope clients:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        put: operations["clientsRenameSite"];
        post?: never;
        /**
         * Delete a site and its deployments; refused (400) while it has agents. Scope: clients:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope clients:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        delete: operations["clientsRemoveSite"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/custom-fields": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List custom fields by scope and name: the agents' with agents:read, the sites' and clients' with clients:read. Scope: agents:read or clients:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope agents:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["customFieldsList"];
        put?: never;
        /**
         * Define a custom field (at most 200 in all; the name unique within its scope). Scope: admin
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope admin, or a console session whose role has it. Errors: {detail}.
         */
        post: operations["customFieldsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/custom-fields/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One custom field (404 for a scope the caller may not read). Scope: agents:read or clients:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope agents:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["customFieldsGet"];
        put?: never;
        post?: never;
        /**
         * Delete a custom field and every value of it. Scope: admin
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope admin, or a console session whose role has it. Errors: {detail}.
         */
        delete: operations["customFieldsRemove"];
        options?: never;
        head?: never;
        /**
         * Change a custom field: label, options, default, required at any time; name, scope and type only while no value of it exists. Scope: admin
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope admin, or a console session whose role has it. Errors: {detail}.
         */
        patch: operations["customFieldsPatch"];
        trace?: never;
    };
    "/api/v3/agents/{agentId}/custom-fields": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set an agent's custom field values (a partial merge; null clears). Scope: agents:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope agents:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        put: operations["agentsPutCustomFields"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/clients/{id}/custom-fields": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set a client's custom field values (a partial merge; null clears). Scope: clients:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope clients:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        put: operations["clientsPutCustomFields"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/clients/{id}/sites/{siteId}/custom-fields": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set a site's custom field values (a partial merge; null clears). Scope: clients:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope clients:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        put: operations["clientsPutSiteCustomFields"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The audit log, newest first: every POST/PUT/PATCH/DELETE on /api/v3 and /auth/v1/admin (refusals included) and every CLI command that changes something; filters actor_kind, key, method, path (prefix), status, since, until. Scope: admin
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["auditList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/v1/download/{target}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download the agent's single-file binary for a target (no API key), of the version this server offers (RMM_AGENT_VERSION)
         * @description Streams `rmm-agent-<target>` (`.exe` on windows) with `X-Checksum-Sha256` (hex SHA-256 of the binary) and `ETag: "<sha256>"` (`If-None-Match` with it: 304). With `Accept-Encoding: gzip` the gzip of it is sent (`Content-Encoding: gzip`; the checksum is still the binary's). A binary not built yet is built on this first request (seconds; concurrent requests wait for the same build). HEAD answers the same headers without the body. Not rate limited (docs/api.md, "Agent binaries").
         */
        get: operations["agentDownloadDownload"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/agents/updates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The staged rollout of the server's agent version: how many agents run each version, and updates pending, running, done and failed. Scope: agents:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope agents:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["agentUpdatesStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/agents/updates/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resumes a halted rollout (RMM_AGENT_UPDATE_HALT_FAILURES): the offered version is offered again, its agent_update_halted alert is resolved by the caller. A rollout that is not halted is left as it is. Answers the rollout as GET does. Audited. Scope: admin
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope admin, or a console session whose role has it. Errors: {detail}.
         */
        post: operations["agentUpdatesResume"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/agents/deployments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List active deployments (not revoked, not expired), by id. Scope: deployments:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope deployments:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["deploymentsList"];
        put?: never;
        /**
         * Create a deployment: an installer download link for a site (max_registrations 1 makes it one-time). Scope: deployments:write. Also limited to 20 per minute per key
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope deployments:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        post: operations["deploymentsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/agents/deployments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a deployment: its download answers 410 from now on. Scope: deployments:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope deployments:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        delete: operations["deploymentsRevoke"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deploy/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a deployment's installer (no API key). 410 once revoked, expired or used up, 404 for an unknown one
         * @description A POSIX shell script (linux, darwin) or a PowerShell script (windows) carrying the server URL and the deployment token; without `platform`, a User-Agent containing PowerShell gets the PowerShell script, any other the shell script. A native installer found in RMM_INSTALLERS_DIR (`<platform>-<arch>.<ext>`) is served instead, named `rmm-agent-<token>.<ext>`. At most RMM_DOWNLOAD_RATE_LIMIT_PER_MINUTE (30) attempts per minute per link and client address are answered and recorded; past it 429, nothing recorded.
         */
        get: operations["downloadDownload"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List agents; filters hostname (exact), client, site, monitoring_type, tag (repeat it: agents carrying every tag given). Scope: agents:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope agents:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["agentsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/agents/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Adds and removes tags on many agents at once (one statement). Every agent must exist for the caller, else 400 naming it and nothing changes. `updated`: how many agents had their tags changed. Scope: agents:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope agents:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        post: operations["agentsBulkTags"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/agents/{agentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One agent, with patches_pending and wmi_detail. Scope: agents:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope agents:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["agentsGet"];
        put?: never;
        post?: never;
        /**
         * Delete the server's record of an agent (and its checks, tasks, alerts). The installed software stays, unless uninstall=true: a connected agent is first told to uninstall itself (its service and files; agent.uninstall), and X-Agent-Uninstall says `sent` or `not connected`. Scope: agents:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope agents:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        delete: operations["agentsRemove"];
        options?: never;
        head?: never;
        /**
         * Changes an agent's tags (replaced), monitoring_type or maintenance; answers the agent detail object. Scope: agents:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope agents:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        patch: operations["agentsUpdate"];
        trace?: never;
    };
    "/api/v3/scripts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List scripts. Scope: scripts:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope scripts:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["scriptsList"];
        put?: never;
        /**
         * Create a script. Scope: scripts:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope scripts:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        post: operations["scriptsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/scripts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One script with its text. Scope: scripts:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope scripts:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["scriptsGet"];
        /**
         * Change a script (the fields given). Scope: scripts:write, and scripts:run when it gives body, shell or args and a check or task uses the script
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope scripts:write and scripts:run (when it gives body, shell or args and a check or task uses the script), or admin. Errors: {detail}.
         */
        put: operations["scriptsReplace"];
        post?: never;
        /**
         * Delete a script; refused (400) while a task or check uses it. Scope: scripts:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope scripts:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        delete: operations["scriptsRemove"];
        options?: never;
        head?: never;
        /**
         * Change a script (same as PUT). Scope: scripts:write, and scripts:run when it gives body, shell or args and a check or task uses the script
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope scripts:write and scripts:run (when it gives body, shell or args and a check or task uses the script), or admin. Errors: {detail}.
         */
        patch: operations["scriptsUpdate"];
        trace?: never;
    };
    "/api/v3/checks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List checks, all or one agent's (?agent=). Scope: checks:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope checks:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["checksList"];
        put?: never;
        /**
         * Create a check on an agent, with the settings of its type. Scope: checks:write, and scripts:run for a check of type script
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope checks:write and scripts:run (for a check of type script), or admin. Errors: {detail}.
         */
        post: operations["checksCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/checks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One check. Scope: checks:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope checks:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["checksGet"];
        /**
         * Change a check's name, settings, failure threshold, run_interval or severity; the agent runs it again at once. Scope: checks:write, and scripts:run for a check of type script
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope checks:write and scripts:run (for a check of type script), or admin. Errors: {detail}.
         */
        put: operations["checksReplace"];
        post?: never;
        /**
         * Delete a check: its open check_failure alert is resolved (by system) and the agent stops running it. Scope: checks:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope checks:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        delete: operations["checksRemove"];
        options?: never;
        head?: never;
        /**
         * Change a check (same as PUT). Scope: checks:write, and scripts:run for a check of type script
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope checks:write and scripts:run (for a check of type script), or admin. Errors: {detail}.
         */
        patch: operations["checksUpdate"];
        trace?: never;
    };
    "/api/v3/checks/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A check's results, newest first (the newest 500 are kept; limit/offset page it). Scope: checks:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope checks:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["checksHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List scheduled tasks (?agent= for one agent). Scope: tasks:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope tasks:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["tasksList"];
        put?: never;
        /**
         * Schedule a script on an agent: cron in UTC, 5 fields, or 6 with seconds first (*\/2 * * * * *: every 2 s). Each due time runs once (GET /api/v3/tasks/{id}/runs/); a failing run opens a task_failure alert, the next successful one resolves it. Scope: tasks:write and scripts:run (a task runs code on the agent)
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope tasks:write and scripts:run, or admin. Errors: {detail}.
         */
        post: operations["tasksCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/tasks/schedule-preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The next 5 due times (UTC) of a cron schedule, as a task with it would run: the console shows them under the Schedule field. Scope: tasks:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope tasks:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["tasksPreview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/tasks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One task. Scope: tasks:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope tasks:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["tasksGet"];
        /**
         * Change a task (the fields given). Scope: tasks:write and scripts:run (a task runs code on the agent)
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope tasks:write and scripts:run, or admin. Errors: {detail}.
         */
        put: operations["tasksReplace"];
        post?: never;
        /**
         * Delete a task. Scope: tasks:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope tasks:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        delete: operations["tasksRemove"];
        options?: never;
        head?: never;
        /**
         * Change a task (same as PUT). Scope: tasks:write and scripts:run
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope tasks:write and scripts:run, or admin. Errors: {detail}.
         */
        patch: operations["tasksUpdate"];
        trace?: never;
    };
    "/api/v3/tasks/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A task's runs, newest first: one per due time of its schedule (due_at), with its status, return code and output (capped at 64 KiB each). The newest 200 are kept. Scope: tasks:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope tasks:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["tasksRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/tasks/{id}/runs/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One run of a task. Scope: tasks:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope tasks:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["tasksRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/agents/{agentId}/runscript": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a script on an agent. output wait (default): 200 with the result once it has finished; collector: the same, and the run is the agent's latest value for that script (GET …/runs/?output=collector&script=ID&limit=1); forget: 202 {id, status} at once. queue: true: an agent that is not connected gets the run when it next connects (202 {id, status: "queued"}; expires_in seconds, a day by default, a week at most; cancel with DELETE …/runs/{run_id}/). Every run is stored (GET /api/v3/agents/{agent_id}/runs/). Scope: scripts:run
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope scripts:run or admin, or a console session whose role has it. Errors: {detail}.
         */
        post: operations["agentsRunScript"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/agents/{agentId}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An agent's script runs, newest first; filter by output, script and status (status=queued: the runs waiting for it). Scope: agents:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope agents:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["agentsRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/agents/{agentId}/runs/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One script run of an agent. Scope: agents:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope agents:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["agentsRun"];
        put?: never;
        post?: never;
        /**
         * Cancel a queued run (runscript with queue: true, or a task with queue_if_offline): 200 with the run, status cancelled; it is never sent. Scope: scripts:run
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope scripts:run or admin, or a console session whose role has it. Errors: {detail}.
         */
        delete: operations["agentsCancelRun"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/policies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List policies, each with how many agents it matches now. Scope: policies:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope policies:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["policiesList"];
        put?: never;
        /**
         * Create a policy (at most 500). Scope: policies:write, and scripts:run for a policy carrying script checks or tasks (before or after the change)
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope policies:write and scripts:run (for a policy carrying script checks or tasks (before or after the change)), or admin. Errors: {detail}.
         */
        post: operations["policiesCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/policies/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Which agents a policy body (or {id, ...changes}) would match, without saving. Scope: policies:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope policies:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        post: operations["policiesPreview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/policies/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One policy. Scope: policies:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope policies:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["policiesGet"];
        put?: never;
        post?: never;
        /**
         * Delete a policy: its items leave every agent. Scope: policies:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope policies:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        delete: operations["policiesRemove"];
        options?: never;
        head?: never;
        /**
         * Change a policy: what the body gives; checks/tasks replace the lists (an item whose key stays keeps its id). Scope: policies:write, and scripts:run for a policy carrying script checks or tasks (before or after the change)
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope policies:write and scripts:run (for a policy carrying script checks or tasks (before or after the change)), or admin. Errors: {detail}.
         */
        patch: operations["policiesUpdate"];
        trace?: never;
    };
    "/api/v3/agents/{agentId}/effective-policy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The agent's effective checks and tasks (its own and its policies', merged by key) and maintenance, each with where it comes from and why. Scope: policies:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope policies:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["effectivePolicyGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/agents/{agentId}/policy-overrides": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The agent's overrides of its policies' items. Scope: agents:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope agents:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["agentsPolicyOverrides"];
        /**
         * Replace the agent's overrides: each disables or adjusts (settings, run_interval, fails_b4_alert) one item of a non-enforced policy on this agent only; the agent gets its new list at once. Scope: agents:write, and scripts:run for an override that changes a script check's settings
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope agents:write and scripts:run (for an override that changes a script check's settings), or admin. Errors: {detail}.
         */
        put: operations["agentsSetPolicyOverrides"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/v1/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register a device as an agent of the deployment's client and site; the same hostname under the same client keeps its agent_id when the request proves it is the same installation
         * @description A hostname already enrolled in the client is re-enrolled (same agent_id, new secret) only with that agent's current `agent_id` + `agent_secret` (its state file), or once within 24 h of an operator's `POST /api/v3/agents/{id}/reenroll/`; otherwise 409 and one open `enrollment_conflict` alert on the enrolled agent. The `hardware_id` is stored as a fact and proves nothing. Limited to RMM_REGISTER_RATE_LIMIT_PER_MINUTE (20) attempts per minute per deployment.
         */
        post: operations["registrationRegister"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/v1/rmm-agent.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The reference agent, one JavaScript file for Node.js 20+ (no key: the code is not secret); the installers fetch it
         * @description No credentials: the agent's code is not secret (the installers and updating agents fetch it). Errors: {detail}.
         */
        get: operations["agentBundleBundle"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/agents/{agentId}/reenroll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Allow the next registration of this agent's hostname (in its client) within 24 h to take the agent over without its current secret: same agent id, a new secret, the old secret stops working (its connection is closed 4001). Used once; the agent's open enrollment_conflict alert is resolved then. For a reinstalled device whose state file is gone (a new disk, a reinstalled OS, a cloned image); otherwise a registration of an enrolled hostname without the agent's current secret is 409. Calling it again moves the deadline. Scope: agents:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope agents:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        post: operations["agentsAllowReenrollment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/system/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The periodic jobs of every instance heard from in the last 30 s: one entry per job and instance, by name then instance, with its mode, interval, state (degraded after 3 failures in a row), runs, failures and last run. Scope: admin
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["systemListJobs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List notification channels (secrets and header values are never answered). Scope: notifications:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope notifications:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["notificationsList"];
        put?: never;
        /**
         * Create a notification channel: webhook, email, slack or teams (docs/notifications.md). Scope: notifications:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope notifications:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        post: operations["notificationsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/notifications/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One notification channel. Scope: notifications:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope notifications:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["notificationsGet"];
        put?: never;
        post?: never;
        /**
         * Delete a channel and its deliveries (pending ones are not sent). Scope: notifications:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope notifications:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        delete: operations["notificationsRemove"];
        options?: never;
        head?: never;
        /**
         * Change a channel (not its type); enabled: true turns on a channel a 410 disabled. Scope: notifications:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope notifications:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        patch: operations["notificationsPatch"];
        trace?: never;
    };
    "/api/v3/notifications/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test notification (notification.test) now, once, and answer how it went. Scope: notifications:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope notifications:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        post: operations["notificationsTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/notifications/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A channel's deliveries, newest first (status pending | delivered | failed, attempts, last status and error). Scope: notifications:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope notifications:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["notificationsDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/agents/{agentId}/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A directory on the agent: 1,000 entries a page (next_cursor gives the next). The agent's refusals keep its words: 404 no such file or directory, 403 permission denied, 400 not a directory. Scope: files:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope files:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["agentsFiles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/agents/{agentId}/files/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A file's bytes, streamed from the agent: Content-Length, X-Checksum-Sha256 (the agent's, of the whole file), Accept-Ranges: bytes. One Range (bytes=a-b, a-, -n) gives 206 with Content-Range; a range past the end 416 with Content-Range: bytes *\/size. Audited (file.download). Scope: files:read
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope files:read or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["agentsFileContent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/agents/{agentId}/files/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a resumable upload of one file (at most 4 GiB): the agent checks the target (its directory exists; not a directory; absent unless overwrite) and keeps the bytes in a temporary file beside it. Send chunks with PUT …/uploads/{upload_id}?offset=N. Open for 24 hours. Scope: files:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope files:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        post: operations["agentsStartUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/agents/{agentId}/files/uploads/{uploadId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An upload as it stands: received is the next PUT's offset. Scope: files:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope files:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["agentsUpload"];
        /**
         * One chunk of an upload (at most chunk_size bytes, Content-Type: application/octet-stream) at offset = the upload's received. What reaches the agent is kept even if the request is cut (GET the upload for received, and go on from there). The last chunk makes the agent check the SHA-256 and put the file in place (status done), or remove it (422). Scope: files:write
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope files:write or admin, or a console session whose role has it. Errors: {detail}.
         */
        put: operations["agentsUploadChunk"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/agents/{agentId}/terminal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open a terminal on an agent: 201 with a one-time ticket; open the WebSocket at url (same host) within expires_in seconds, as the same caller (docs/terminal.md). Scope: terminal
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope terminal or admin, or a console session whose role has it. Errors: {detail}.
         */
        post: operations["agentsOpenTerminal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/terminal-sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Terminal sessions, newest first; agent filters by agent. Scope: terminal
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope terminal or admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["terminalSessionsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/terminal-sessions/{id}/recording": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A session's recording (RMM_TERMINAL_RECORDING=true), asciicast v2: the header line, then one event line per output or resize (play it with asciinema). Scope: admin
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope admin, or a console session whose role has it. Errors: {detail}.
         */
        get: operations["terminalSessionsRecording"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/terminal-sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * End a terminal session (end reason ended_by_admin): an unused ticket at once, an open session within 5 s. Scope: admin
         * @description Needs an X-API-KEY (Authorize: api-key) with the scope admin, or a console session whose role has it. Errors: {detail}.
         */
        delete: operations["terminalSessionsEnd"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AgentPingDto: {
            /**
             * @description The agent the credentials belong to
             * @example 42
             */
            agent_id: string;
            /**
             * Format: date-time
             * @description The server's clock
             */
            server_time: string;
        };
        RmmFieldErrorDto: {
            /** @example site */
            field: string | null;
            /** @example site 9 does not belong to client 1 */
            message: string;
        };
        RmmErrorDto: {
            /** @description validation error | Invalid token | permission denied | Not found | rate limited | server error, or a reason */
            detail: string;
            /** @description With 400 validation error: the fields at fault */
            errors?: components["schemas"]["RmmFieldErrorDto"][];
            /** @description With 404 from GET /agent/v1/download/{target}: the targets there are */
            targets?: string[];
        };
        LivenessDto: {
            /**
             * @description Always "ok" while the process serves requests.
             * @enum {string}
             */
            status: "ok";
        };
        OpenFilesDto: {
            /** @description Files open now (the last count of /proc/self/fd, plus HTTP connections since). */
            open: number;
            /** @description The soft open-file limit (`ulimit -n`) read at start. */
            limit: number;
            /** @description RMM_FD_HEADROOM: files kept free under the limit. */
            headroom: number;
            /** @enum {string} */
            agent_connections: "refused (1013 try again later): open files within the head-room of the limit";
        };
        ReadinessDto: {
            /**
             * @description "ready" when every dependency answers, else "unavailable" (with status 503).
             * @enum {string}
             */
            status: "ready" | "unavailable";
            /** @enum {string} */
            database: "up" | "down";
            /**
             * @description This instance's periodic jobs that failed 3 times or more in a row (GET /api/v3/system/jobs/ says why); present
             *     only when there is one. A detail: it does not change the status code, which says whether the database answers.
             */
            degraded_jobs?: string[];
            /**
             * @description Present only while this instance refuses new agent connections because its open files are within RMM_FD_HEADROOM
             *     of its open-file limit (the soft RLIMIT_NOFILE read at start): the figures. A detail: the API still answers, and
             *     the status code does not change.
             */
            open_files?: components["schemas"]["OpenFilesDto"];
        };
        PasswordGrantDto: {
            /**
             * @description grant_type=password
             * @example tech@acme.test
             */
            email?: string;
            /**
             * @description grant_type=password
             * @example correct horse battery staple
             */
            password?: string;
            /** @description grant_type=refresh_token: a refresh token, usable once */
            refresh_token?: string;
        };
        GoTrueUserDto: {
            /** Format: uuid */
            id: string;
            /** @example authenticated */
            aud: string;
            /** @example authenticated */
            role: string;
            email: string;
            /** Format: date-time */
            email_confirmed_at: string | null;
            /** Format: date-time */
            last_sign_in_at: string | null;
            app_metadata: {
                [key: string]: unknown;
            };
            user_metadata: {
                [key: string]: unknown;
            };
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        TokenResponseDto: {
            /** @description HS256 JWT signed with JWT_SECRET: sub, role, aud, exp, email, session_id */
            access_token: string;
            /** @example bearer */
            token_type: string;
            /** @example 3600 */
            expires_in: number;
            /** @description Unix seconds */
            expires_at: number;
            /** @description Single use */
            refresh_token: string;
            user: components["schemas"]["GoTrueUserDto"];
        };
        GoTrueErrorDto: {
            /** @description With X-Supabase-Api-Version: 2024-01-01: the error code (invalid_credentials …); else the HTTP status */
            code: number | string;
            /** @description Versioned format */
            message?: string;
            /** @description Legacy format */
            error_code?: string;
            /** @description Legacy format */
            msg?: string;
        };
        AdminCreateUserDto: {
            email: string;
            password: string;
            /** @description true: the address counts as confirmed (this server sends no mail) */
            email_confirm?: boolean;
            user_metadata?: {
                [key: string]: unknown;
            };
        };
        AdminUserListDto: {
            users: components["schemas"]["GoTrueUserDto"][];
            /** @example authenticated */
            aud: string;
            total: number;
        };
        EnrollRequestDto: {
            /**
             * @description Must be a non-empty string.
             * @example DESKTOP-42
             */
            hostname: string;
            /**
             * @description windows, darwin or linux; only presence is checked.
             * @example windows
             */
            platform: string;
            /**
             * @description amd64, arm64, amd64-mac…; passed through. Default: amd64 (windows), amd64-mac (darwin), amd64 (others).
             * @example amd64
             */
            arch?: string;
        };
        EnrollResponseDto: {
            /**
             * @description The backend deployment's download_url.
             * @example http://localhost:3000/deploy/3f2b9c1e-8d4a-4f6b-9e2a-1c5d7b8e9f01
             */
            download_url: string;
            /**
             * Format: uuid
             * @description The backend deployment's uuid.
             * @example 3f2b9c1e-8d4a-4f6b-9e2a-1c5d7b8e9f01
             */
            deployment_uuid: string;
            /**
             * @description Request time plus 24 hours, ISO 8601 UTC: the expiry sent to the backend.
             * @example 2026-11-23T13:30:00.000Z
             */
            expires_at: string;
        };
        EnrollErrorDto: {
            error: string;
        };
        EnrollmentStatusDto: {
            /**
             * @description pending, completed, expired or failed. A pending enrollment past its 24 hours reads expired.
             * @enum {string}
             */
            status: "pending" | "completed" | "expired" | "failed";
            /**
             * @description The agent's id once an agent has registered with this deployment, else null.
             * @example 42
             */
            agent_id: number | null;
            /** @example DESKTOP-42 */
            hostname: string | null;
            /** @example 2026-11-23T13:30:00.000Z */
            expires_at: string;
        };
        AlertDto: {
            id: number;
            /** @enum {string} */
            alert_type: "check_failure" | "task_failure" | "agent_overdue" | "enrollment_conflict" | "agent_update_halted" | "agent_build_failed";
            /** @example 42 */
            agent: string;
            /** @enum {string} */
            severity: "info" | "warning" | "error";
            message: string;
            /** Format: date-time */
            created_at: string;
            snoozed: boolean;
            resolved: boolean;
            /** @description Seen (acknowledged), whether or not resolved */
            acknowledged: boolean;
            /** Format: date-time */
            acknowledged_at: string | null;
            /** @description Name of the API key that acknowledged it */
            acknowledged_by: string | null;
            /** Format: date-time */
            resolved_at: string | null;
            /** @description Name of the API key that resolved it */
            resolved_by: string | null;
            /** @description check id, for check_failure */
            check: number | null;
            /** @description task id, for task_failure */
            task: number | null;
            /** @description Its subject opened and resolved more than RMM_ALERT_FLAP_LIMIT alerts in 30 minutes: it stays open, with no created or resolved notifications, until the subject has been stable for 30 minutes (docs/notifications.md, "Flapping") */
            flapping: boolean;
        };
        ApiKeyDto: {
            id: number;
            name: string;
            /** @description The first characters of the secret, to recognise it */
            prefix: string;
            scopes: ("admin" | "agents:read" | "agents:write" | "deployments:read" | "deployments:write" | "clients:read" | "clients:write" | "scripts:read" | "scripts:write" | "scripts:run" | "checks:read" | "checks:write" | "tasks:read" | "tasks:write" | "alerts:read" | "alerts:write" | "notifications:read" | "notifications:write" | "policies:read" | "policies:write" | "terminal" | "files:read" | "files:write")[];
            /** @description The only clients the key may see and act in; null: every client */
            clients: number[] | null;
            /** Format: date-time */
            expires_at: string | null;
            /** Format: date-time */
            revoked_at: string | null;
            /**
             * Format: date-time
             * @description Kept to within 10 seconds
             */
            last_used_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        CreateApiKeyDto: {
            /** @example psa-integration */
            name: string;
            /**
             * @example [
             *       "agents:read",
             *       "deployments:write"
             *     ]
             */
            scopes: ("admin" | "agents:read" | "agents:write" | "deployments:read" | "deployments:write" | "clients:read" | "clients:write" | "scripts:read" | "scripts:write" | "scripts:run" | "checks:read" | "checks:write" | "tasks:read" | "tasks:write" | "alerts:read" | "alerts:write" | "notifications:read" | "notifications:write" | "policies:read" | "policies:write" | "terminal" | "files:read" | "files:write")[];
            /**
             * Format: date-time
             * @description When the key stops working (future). Or use expires_in. Left out or null: the key does not expire
             */
            expires_at?: string | null;
            /**
             * @description Lifetime from now: 90m, 12h, 30d, 4w
             * @example 30d
             */
            expires_in?: string;
            /**
             * @description The only clients the key may see and act in (each must exist; at least one). Left out or null: every client. A key limited to some clients may only create keys limited to some of its own
             * @example [
             *       1,
             *       2
             *     ]
             */
            clients?: number[] | null;
        };
        CreatedApiKeyDto: {
            id: number;
            name: string;
            /** @description The first characters of the secret, to recognise it */
            prefix: string;
            scopes: ("admin" | "agents:read" | "agents:write" | "deployments:read" | "deployments:write" | "clients:read" | "clients:write" | "scripts:read" | "scripts:write" | "scripts:run" | "checks:read" | "checks:write" | "tasks:read" | "tasks:write" | "alerts:read" | "alerts:write" | "notifications:read" | "notifications:write" | "policies:read" | "policies:write" | "terminal" | "files:read" | "files:write")[];
            /** @description The only clients the key may see and act in; null: every client */
            clients: number[] | null;
            /** Format: date-time */
            expires_at: string | null;
            /** Format: date-time */
            revoked_at: string | null;
            /**
             * Format: date-time
             * @description Kept to within 10 seconds
             */
            last_used_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description The secret: shown this once, stored only as a hash */
            key: string;
        };
        PasskeyAnswerDto: {
            /**
             * Format: uuid
             * @description The challenge_id the options came with (each is used once, for 5 minutes)
             */
            challenge_id: string;
            /** @description The credential as JSON (AuthenticationResponseJSON or RegistrationResponseJSON) */
            response: {
                [key: string]: unknown;
            };
        };
        LoginDto: {
            /** @example ops@msp.example */
            email: string;
            /** @example correct horse battery */
            password: string;
            /**
             * @description The TOTP code (or a recovery code) when the operator has TOTP set up
             * @example 123456
             */
            totp?: string;
            /** @description A passkey as the second factor: the answer to passkey_options of the 401 with passkey_required */
            passkey?: components["schemas"]["PasskeyAnswerDto"];
        };
        SessionOperatorDto: {
            id: number;
            email: string;
            /** @enum {string} */
            role: "admin" | "technician" | "viewer";
            /** @description The clients this operator may see; null = every client */
            clients: number[] | null;
            /** @description The role's scopes (admin = every scope) */
            scopes: ("admin" | "agents:read" | "agents:write" | "deployments:read" | "deployments:write" | "clients:read" | "clients:write" | "scripts:read" | "scripts:write" | "scripts:run" | "checks:read" | "checks:write" | "tasks:read" | "tasks:write" | "alerts:read" | "alerts:write" | "notifications:read" | "notifications:write" | "policies:read" | "policies:write" | "terminal" | "files:read" | "files:write")[];
        };
        SessionDto: {
            operator: components["schemas"]["SessionOperatorDto"];
        };
        OidcMethodDto: {
            /**
             * @description RMM_OIDC_BUTTON: the page shows "Sign in with <button>"
             * @example Entra ID
             */
            button: string;
        };
        SignInMethodsDto: {
            /** @description RMM_PASSWORD_LOGIN: false = only break-glass operators sign in with a password */
            password: boolean;
            /** @description The OpenID provider, when RMM_OIDC_ISSUER is set */
            oidc: components["schemas"]["OidcMethodDto"] | null;
            /** @description Passkeys are always offered (an operator without one is told so) */
            passkeys: boolean;
            /** @description RMM_STEP_UP_MINUTES: dangerous actions need an authentication this recent */
            step_up_minutes: number;
        };
        MeDto: {
            operator: components["schemas"]["SessionOperatorDto"];
            /**
             * Format: date-time
             * @description When this session last proved who the operator is (sign-in or re-authentication): step-up counts from here
             */
            authenticated_at: string | null;
            /** @description The operator has a password (re-authenticate with it) */
            has_password: boolean;
            /** @description TOTP is set up (the password needs its code) */
            totp: boolean;
            /** @description How many passkeys the operator has registered */
            passkeys: number;
            /** @description The account is linked to the OpenID provider (re-authenticate there) */
            sso: boolean;
        };
        SessionStateDto: {
            /** @description Whether the rmm_session cookie names a live session */
            signed_in: boolean;
            /** @description The signed-in operator (as GET /api/v3/auth/me); null when not signed in */
            operator: components["schemas"]["SessionOperatorDto"] | null;
        };
        OriginVerdictDto: {
            /**
             * @description The origin asked about, as browsers write it
             * @example http://127.0.0.1:3000
             */
            origin: string;
            /** @description Whether an events WebSocket upgrade from a page of this origin may use the session cookie */
            allowed: boolean;
            /**
             * @description Why not, with the setting that would allow it (PUBLIC_URL, RMM_CORS_ORIGINS); null when allowed
             * @example live updates refused for the page origin "http://127.0.0.1:3000": this server's console is at http://localhost:3000 (PUBLIC_URL names it); open the console at one of those, or set PUBLIC_URL=http://127.0.0.1:3000 (the address operators open) or add http://127.0.0.1:3000 to RMM_CORS_ORIGINS, and restart the server
             */
            reason: string | null;
            /**
             * @description The console's origins: PUBLIC_URL's (without PUBLIC_URL, localhost, 127.0.0.1 and [::1] at the listening port), then RMM_CORS_ORIGINS
             * @example [
             *       "http://localhost:3000"
             *     ]
             */
            allowed_origins: string[];
        };
        ReauthDto: {
            /** @description The signed-in operator's password */
            password: string;
            /**
             * @description The TOTP code (or a recovery code) when the operator has TOTP set up
             * @example 123456
             */
            totp?: string;
        };
        OperatorSessionDto: {
            /** Format: uuid */
            id: string;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description Last request (written at most once a minute)
             */
            last_seen_at: string;
            /**
             * Format: date-time
             * @description The absolute end
             */
            expires_at: string;
            /**
             * Format: date-time
             * @description Sign-in or last re-authentication (step-up)
             */
            authenticated_at: string;
            /** @description The address it was signed in from */
            address: string | null;
            /** @description The browser (User-Agent) it was signed in from */
            user_agent: string | null;
            /**
             * @description How: password, password+totp, password+recovery_code, password+passkey, passkey, oidc (of the last re-authentication)
             * @example password+totp
             */
            method: string;
            /** @description The session this request came with */
            current: boolean;
        };
        SessionsEndedDto: {
            /** @description How many sessions were ended */
            ended: number;
        };
        TotpSetupDto: {
            /** @description Scan into an authenticator app; shown once */
            otpauth_uri: string;
            /** @description Ten one-time codes for when the phone is lost; shown once */
            recovery_codes: string[];
        };
        OperatorDto: {
            id: number;
            email: string;
            /** @enum {string} */
            role: "admin" | "technician" | "viewer";
            /** @description null = every client */
            clients: number[] | null;
            disabled: boolean;
            /** @description TOTP is set up */
            totp: boolean;
            /** @description May sign in with a password even when RMM_PASSWORD_LOGIN=false (operator create … --break-glass; docs/sso.md) */
            break_glass: boolean;
            /** @description Linked to an account at the OpenID provider (signs in with single sign-on; role and clients follow its groups) */
            sso: boolean;
            /** Format: date-time */
            created_at: string;
        };
        CreateOperatorDto: {
            /** @example tech@msp.example */
            email: string;
            password: string;
            /** @enum {string} */
            role: "admin" | "technician" | "viewer";
            /** @description Only these clients; left out or null: every client */
            clients?: number[] | null;
        };
        UpdateOperatorDto: {
            /** @enum {string} */
            role?: "admin" | "technician" | "viewer";
            /** @description null: every client */
            clients?: number[] | null;
            /** @description true ends every session of the operator at once */
            disabled?: boolean;
            /** @description A new password ends every session of the operator at once */
            password?: string;
        };
        PasskeyCeremonyDto: {
            /**
             * Format: uuid
             * @description Sent back with the answer; used once, within 5 minutes
             */
            challenge_id: string;
            /** @description PublicKeyCredentialCreationOptionsJSON or PublicKeyCredentialRequestOptionsJSON */
            options: {
                [key: string]: unknown;
            };
        };
        RegisterPasskeyDto: {
            /**
             * Format: uuid
             * @description The challenge_id the options came with (each is used once, for 5 minutes)
             */
            challenge_id: string;
            /** @description The credential as JSON (AuthenticationResponseJSON or RegistrationResponseJSON) */
            response: {
                [key: string]: unknown;
            };
            /**
             * @description Defaults to "Passkey"
             * @example YubiKey 5
             */
            name?: string;
        };
        PasskeyDto: {
            /** Format: uuid */
            id: string;
            /** @example YubiKey 5 */
            name: string;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description The last sign-in, second factor or step-up with it
             */
            last_used_at: string | null;
            /**
             * @description singleDevice (bound to one authenticator) or multiDevice (synced), as the authenticator said
             * @example multiDevice
             */
            device_type: string | null;
            /** @description Whether the authenticator says the passkey is backed up (synced) */
            backed_up: boolean;
        };
        RenamePasskeyDto: {
            /** @example Work laptop */
            name: string;
        };
        SiteRefDto: {
            id: number;
            name: string;
        };
        ClientDto: {
            id: number;
            name: string;
            sites: components["schemas"]["SiteRefDto"][];
            /**
             * @description auto: the client's agents update themselves to the server's agent version, staged (docs/agent-binaries.md); off: never
             * @enum {string}
             */
            agent_update: "auto" | "off";
            /** @description Every client custom field by name: its value, else its default, else null; a secret "********" when set, null when not (docs/custom-fields.md) */
            custom_fields: {
                [key: string]: unknown;
            };
        };
        CreateClientDto: {
            /** @example Acme Corp */
            name: string;
            /**
             * @description Also create a first site with this name
             * @example HQ
             */
            site_name?: string;
            /**
             * @description Whether the client's agents update themselves (staged) to the server's agent version
             * @default auto
             * @enum {string}
             */
            agent_update?: "auto" | "off";
        };
        RenameDto: {
            /** @example New name */
            name: string;
        };
        PatchClientDto: {
            /** @example New name */
            name?: string;
            /**
             * @description auto: the client's agents update themselves to the server's agent version, staged; off: never (pending updates are dropped, running ones finish)
             * @enum {string}
             */
            agent_update?: "auto" | "off";
        };
        SiteDto: {
            id: number;
            name: string;
            /** @description client id */
            client: number;
            /** @description Every site custom field by name: its value, else its default, else null; a secret "********" when set, null when not (docs/custom-fields.md) */
            custom_fields: {
                [key: string]: unknown;
            };
        };
        CustomFieldDto: {
            id: number;
            /** @example site_code */
            name: string;
            /** @example Site code */
            label: string;
            /** @enum {string} */
            scope: "agent" | "site" | "client";
            /** @enum {string} */
            type: "text" | "number" | "boolean" | "date" | "select" | "multiselect" | "secret";
            /** @description select and multiselect: the allowed values */
            options: string[] | null;
            /** @description Answered for an agent, site or client without a value of its own (text, secret, date (YYYY-MM-DD) and select: a string; number: a finite number; boolean; multiselect: a list of options); never for a secret */
            default: (string | number | boolean | string[]) | null;
            /** @description The console asks for it; the API still lets a value be cleared */
            required: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        CreateCustomFieldDto: {
            /**
             * @description Unique within its scope; how scripts name it ({{agent.site_code}})
             * @example site_code
             */
            name: string;
            /** @example Site code */
            label: string;
            /** @enum {string} */
            scope: "agent" | "site" | "client";
            /** @enum {string} */
            type: "text" | "number" | "boolean" | "date" | "select" | "multiselect" | "secret";
            /** @description Required for select and multiselect (distinct, 1–200 characters each); refused for the other types */
            options?: string[];
            /** @description A value of the field's type (text, secret, date (YYYY-MM-DD) and select: a string; number: a finite number; boolean; multiselect: a list of options); not for a secret; null or left out: none */
            default?: (string | number | boolean | string[]) | null;
            /** @default false */
            required?: boolean;
        };
        PatchCustomFieldDto: {
            name?: string;
            label?: string;
            /** @enum {string} */
            scope?: "agent" | "site" | "client";
            /** @enum {string} */
            type?: "text" | "number" | "boolean" | "date" | "select" | "multiselect" | "secret";
            /** @description Replaces the options; an option some value holds cannot be removed (400) */
            options?: string[];
            /** @description null clears it */
            default?: (string | number | boolean | string[]) | null;
            required?: boolean;
        };
        AuditEntryDto: {
            id: number;
            /**
             * Format: date-time
             * @description When the outcome was known
             */
            at: string;
            /** @enum {string} */
            actor_kind: "api_key" | "service_role" | "user" | "cli" | "anonymous" | "operator";
            /** @description API key id, operator id, or the user's uuid; null for service_role, cli, anonymous */
            actor_id: string | null;
            /** @description API key name, operator's or user's e-mail, service_role, or the CLI's OS user; for a console sign-in that failed (anonymous), the e-mail tried */
            actor_name: string | null;
            /**
             * @description null for a CLI command
             * @enum {string|null}
             */
            method: "POST" | "PUT" | "PATCH" | "DELETE" | null;
            /**
             * @description Method and route, or the CLI command (apikey revoke)
             * @example DELETE /api/v3/clients/{id}/
             */
            action: string;
            /**
             * @description The path as requested (no query), or the CLI arguments without secrets
             * @example /api/v3/clients/7/
             */
            target: string;
            client_address: string | null;
            /** @description HTTP status; null for a CLI command */
            status: number | null;
            /**
             * @description The HTTP status as text (a console sign-in adds its method: '200 password+totp', '401 password'), or 'ok' / 'error: <message>' for the CLI
             * @example 204
             */
            outcome: string;
            /** @description X-Request-Id of the request */
            request_id: string | null;
            /** @description What the change did, where the resource records it (policies): {before, after}, null for a side that does not exist */
            changes: {
                [key: string]: unknown;
            } | null;
        };
        AgentVersionCountDto: {
            /**
             * @description null: agents that never reported a version
             * @example 0.1.0
             */
            version: string | null;
            /** @example 120 */
            agents: number;
        };
        AgentUpdateStatusCountsDto: {
            /** @description waiting for a slot (RMM_AGENT_UPDATE_CONCURRENCY), or for the agent to connect */
            pending: number;
            /** @description offered (update.available sent), not yet back on the new version */
            running: number;
            /** @description came back on the new version */
            done: number;
            /** @description refused the binary (signature, hash, download), rolled back, or did not come back within 15 minutes */
            failed: number;
        };
        AgentUpdateFailureDto: {
            /** @example 42 */
            agent_id: string;
            /** @example ACME-WS-01 */
            hostname: string;
            /**
             * @description the version that failed
             * @example 0.2.0
             */
            version: string;
            /** @example 0.2.0 did not connect within 120 s */
            error: string | null;
            /** Format: date-time */
            at: string | null;
        };
        AgentUpdatesDto: {
            /**
             * @description the agent version this server offers (RMM_AGENT_VERSION, default its own version)
             * @example 0.2.0
             */
            version: string;
            /**
             * @description RMM_AGENT_UPDATE_CONCURRENCY: at most this many agents update at once
             * @example 50
             */
            concurrency: number;
            /** @description how many agents (that the caller may see) run each version, most first */
            versions: components["schemas"]["AgentVersionCountDto"][];
            /** @description updates to `version` by status (pending, running, done, failed) */
            updates: components["schemas"]["AgentUpdateStatusCountsDto"];
            /** @description the 20 latest failed updates, newest first */
            recent_failures: components["schemas"]["AgentUpdateFailureDto"][];
            /** @description true while the rollout of `version` is halted: more than RMM_AGENT_UPDATE_HALT_FAILURES updates to it failed within an hour, so it is offered to no agent until POST /api/v3/agents/updates/resume/ */
            halted: boolean;
            /**
             * @description why it halted (null when not halted)
             * @example 6 updates to 0.2.0 failed within an hour (more than RMM_AGENT_UPDATE_HALT_FAILURES, 5); the last: ACME-WS-01: 0.2.0 did not connect within 120 s
             */
            halted_reason: string | null;
            /**
             * Format: date-time
             * @description when it halted (null when not halted)
             */
            halted_at: string | null;
        };
        CreateDeploymentDto: {
            /**
             * @description client id
             * @example 1
             */
            client: number;
            /**
             * @description site id; the site must belong to the client
             * @example 1
             */
            site: number;
            /**
             * Format: date-time
             * @description ISO 8601, in the future. Default: 24 hours from now
             */
            expires?: string;
            /**
             * @default amd64
             * @enum {string}
             */
            arch?: "amd64" | "arm64" | "amd64-mac" | "arm64-mac";
            /** @description Extra command-line arguments for the installer: one line, no control characters (U+0000-U+001F, U+007F) */
            install_flags?: string | null;
            /**
             * @description How many successful registrations (re-enrollments included) the link may make; 1 makes it a one-time link. Absent or null: any number until expiry or revocation
             * @example 1
             */
            max_registrations?: number | null;
        };
        DeploymentDto: {
            id: number;
            /** Format: uuid */
            uuid: string;
            /** @description client id */
            client: number;
            /** @description site id */
            site: number;
            /** Format: date-time */
            expiry: string;
            install_flags: string | null;
            /** @description Installer download under PUBLIC_URL; no key needed, works until expiry or revocation */
            download_url: string;
            /** @enum {string} */
            arch: "amd64" | "arm64" | "amd64-mac" | "arm64-mac";
            /** Format: date-time */
            created_at: string;
            /** @description Successful registrations the link may make (null: any number); once reached, register and download answer 410 "deployment used up" */
            max_registrations: number | null;
            /** @description Successful registrations made through it so far (re-enrollments included) */
            registrations: number;
        };
        NamedRefDto: {
            id: number;
            name: string;
        };
        DiskDto: {
            /** @example C: */
            device: string;
            /** @example 120.5 GB */
            free: string;
            /** @example 475.8 GB */
            total: string;
            /**
             * @description percent used
             * @example 75
             */
            percent: number;
        };
        AgentDto: {
            /**
             * @description A decimal integer, as a string (see docs/decisions.md)
             * @example 42
             */
            agent_id: string;
            hostname: string;
            client: components["schemas"]["NamedRefDto"] | null;
            site: components["schemas"]["NamedRefDto"] | null;
            /** @enum {string} */
            plat: "windows" | "darwin" | "linux";
            /** @enum {string} */
            monitoring_type: "server" | "workstation";
            operating_system: string | null;
            /** @example 2.8.0 */
            version: string;
            /** Format: date-time */
            last_seen: string | null;
            /** @enum {string} */
            status: "online" | "offline" | "overdue";
            /**
             * @description True while the agent has registered but never connected (last_seen is null; its status is offline): its installation did not start it, or it cannot reach the server. The console shows "registered, never connected". Added beside status rather than as a status value, so clients that know only online, offline and overdue keep working (docs/decisions.md, "Registered, never connected")
             * @example false
             */
            never_connected: boolean;
            logged_in_username: string | null;
            public_ip: string | null;
            local_ip: string | null;
            cpu_model: string | null;
            /** @description gigabytes */
            total_ram: number | null;
            disks: components["schemas"]["DiskDto"][] | null;
            /**
             * @description Tags: at most 50, each 1–64 characters of letters, digits, space and _ . : -; stored lowercase, sorted, without duplicates
             * @example [
             *       "finance"
             *     ]
             */
            tags: string[];
            /** @description True while the agent is in maintenance: put there by an operator (PATCH {maintenance: true}), or inside a policy maintenance window (until maintenance_until). Its checks run and record; no alert opens, no notification is sent */
            maintenance: boolean;
            /**
             * Format: date-time
             * @description The end of the policy maintenance window the agent is in; null when in none (an operator's maintenance has no end)
             */
            maintenance_until: string | null;
            /**
             * @description Every agent custom field by name: its value, else its default, else null; a secret "********" when set, null when not (docs/custom-fields.md)
             * @example {
             *       "site_code": "NYC-1",
             *       "admin_password": "********"
             *     }
             */
            custom_fields: {
                [key: string]: unknown;
            };
        };
        BulkTagsDto: {
            /**
             * @description Agent ids (strings, as agent_id), 1 to 5000
             * @example [
             *       "42",
             *       "43"
             *     ]
             */
            agents: string[];
            /**
             * @description Tags each agent gets (1–64 characters of letters, digits, space and _ . : -)
             * @example [
             *       "finance"
             *     ]
             */
            add?: string[];
            /**
             * @description Tags taken off each agent
             * @example [
             *       "old"
             *     ]
             */
            remove?: string[];
        };
        BulkTagsResultDto: {
            /**
             * @description How many of the agents had their tags changed (an agent that already had them is not counted)
             * @example 2
             */
            updated: number;
        };
        AgentDetailDto: {
            /**
             * @description A decimal integer, as a string (see docs/decisions.md)
             * @example 42
             */
            agent_id: string;
            hostname: string;
            client: components["schemas"]["NamedRefDto"] | null;
            site: components["schemas"]["NamedRefDto"] | null;
            /** @enum {string} */
            plat: "windows" | "darwin" | "linux";
            /** @enum {string} */
            monitoring_type: "server" | "workstation";
            operating_system: string | null;
            /** @example 2.8.0 */
            version: string;
            /** Format: date-time */
            last_seen: string | null;
            /** @enum {string} */
            status: "online" | "offline" | "overdue";
            /**
             * @description True while the agent has registered but never connected (last_seen is null; its status is offline): its installation did not start it, or it cannot reach the server. The console shows "registered, never connected". Added beside status rather than as a status value, so clients that know only online, offline and overdue keep working (docs/decisions.md, "Registered, never connected")
             * @example false
             */
            never_connected: boolean;
            logged_in_username: string | null;
            public_ip: string | null;
            local_ip: string | null;
            cpu_model: string | null;
            /** @description gigabytes */
            total_ram: number | null;
            disks: components["schemas"]["DiskDto"][] | null;
            /**
             * @description Tags: at most 50, each 1–64 characters of letters, digits, space and _ . : -; stored lowercase, sorted, without duplicates
             * @example [
             *       "finance"
             *     ]
             */
            tags: string[];
            /** @description True while the agent is in maintenance: put there by an operator (PATCH {maintenance: true}), or inside a policy maintenance window (until maintenance_until). Its checks run and record; no alert opens, no notification is sent */
            maintenance: boolean;
            /**
             * Format: date-time
             * @description The end of the policy maintenance window the agent is in; null when in none (an operator's maintenance has no end)
             */
            maintenance_until: string | null;
            /**
             * @description Every agent custom field by name: its value, else its default, else null; a secret "********" when set, null when not (docs/custom-fields.md)
             * @example {
             *       "site_code": "NYC-1",
             *       "admin_password": "********"
             *     }
             */
            custom_fields: {
                [key: string]: unknown;
            };
            patches_pending: number;
            wmi_detail: {
                [key: string]: unknown;
            } | null;
            /** @description The deployment the agent last enrolled through */
            deployment: number | null;
            /**
             * @description The name the device gives itself (the hostname it sent at registration, kept current by its heartbeat facts). The agent's hostname is the one the enrollment function was asked for when the device enrolled through it, else the same as this. Null only for an agent recorded without one
             * @example vm
             */
            os_hostname: string | null;
            /** @description check.result messages of this agent dropped for coming before their check's spacing, max(run_interval / 2, 5 s) (written every 10 s; docs/security.md, N2). An agent that keeps sending faster than its checks run is closed 1008 */
            check_results_dropped: number;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description when the agent's record last changed: its facts (sent with heartbeats) or a re-enrollment; heartbeats that change nothing move last_seen, not this
             */
            updated_at: string;
        };
        UpdateAgentDto: {
            /**
             * @description Replaces the agent's tags. Tags: at most 50, each 1–64 characters of letters, digits, space and _ . : -; stored lowercase, sorted, without duplicates
             * @example [
             *       "finance",
             *       "paris"
             *     ]
             */
            tags?: string[];
            /** @enum {string} */
            monitoring_type?: "server" | "workstation";
            /** @description true: the agent is in maintenance until set false (its checks run and record, but no alert opens and no notification is sent; tasks with skip_in_maintenance are recorded skipped) */
            maintenance?: boolean;
        };
        ScriptDto: {
            id: number;
            name: string;
            /** @enum {string} */
            shell: "powershell" | "cmd" | "python" | "bash";
            description: string | null;
            args: string[];
            default_timeout: number;
        };
        ScriptDetailDto: {
            id: number;
            name: string;
            /** @enum {string} */
            shell: "powershell" | "cmd" | "python" | "bash";
            description: string | null;
            args: string[];
            default_timeout: number;
            body: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        CreateScriptDto: {
            /** @example Clear temp files */
            name: string;
            /** @enum {string} */
            shell: "powershell" | "cmd" | "python" | "bash";
            description?: string | null;
            /**
             * @description The script text (at most 1 MiB)
             * @example Remove-Item $env:TEMP\* -Recurse -Force
             */
            body: string;
            /** @description Default arguments */
            args?: string[];
            /**
             * @description Default timeout, seconds
             * @default 90
             */
            default_timeout?: number;
        };
        UpdateScriptDto: {
            /** @example Clear temp files */
            name?: string;
            /** @enum {string} */
            shell?: "powershell" | "cmd" | "python" | "bash";
            description?: string | null;
            /**
             * @description The script text (at most 1 MiB)
             * @example Remove-Item $env:TEMP\* -Recurse -Force
             */
            body?: string;
            /** @description Default arguments */
            args?: string[];
            /**
             * @description Default timeout, seconds
             * @default 90
             */
            default_timeout?: number;
        };
        SourcePolicyDto: {
            id: number;
            name: string;
        };
        ItemSourceDto: {
            /** @enum {string} */
            type: "agent" | "policy";
            /** @description type policy: the policy the item comes from */
            policy?: components["schemas"]["SourcePolicyDto"];
            /** @description type policy: whether the policy is enforced (its items cannot be overridden per agent) */
            enforced?: boolean;
            /** @description type policy: the item's merge key, as an override names it (PUT /api/v3/agents/{id}/policy-overrides/) */
            key?: string;
        };
        CheckDto: {
            id: number;
            /** @example 42 */
            agent: string;
            /** @enum {string} */
            check_type: "diskspace" | "ping" | "cpuload" | "memory" | "winsvc" | "script" | "eventlog";
            name: string;
            /** @enum {string} */
            status: "passing" | "failing" | "pending";
            more_info: string | null;
            /** Format: date-time */
            last_run: string | null;
            settings: {
                [key: string]: unknown;
            };
            fails_b4_alert: number;
            /** @description Consecutive failing results so far (0 after a passing one) */
            fail_count: number;
            /** @description Seconds between two runs on the agent (it adds ±10 % jitter); a new or changed check runs at once */
            run_interval: number;
            /**
             * @description The severity of the check_failure alert this check opens
             * @enum {string}
             */
            severity: "info" | "warning" | "error";
            /** @description false: the check keeps its settings and history but its agent stops running it, and its open check_failure alert is resolved by system; true again: the agent runs it at once */
            enabled: boolean;
            /** @description The agent's own check, or a policy's (managed by the policy: change it through the agent's policy overrides) */
            source: components["schemas"]["ItemSourceDto"];
        };
        CheckResultDto: {
            id: number;
            /** @enum {string} */
            status: "passing" | "failing" | "pending";
            /** @description What the agent saw (at most 4,000 characters) */
            more_info: string | null;
            /**
             * Format: date-time
             * @description When the server received the result
             */
            created_at: string;
        };
        CreateCheckDto: {
            /**
             * @description agent id (digits, as a string or a number)
             * @example 42
             */
            agent: string;
            /** @enum {string} */
            check_type: "diskspace" | "ping" | "cpuload" | "memory" | "winsvc" | "script" | "eventlog";
            /** @description Default: made from the type and settings */
            name?: string;
            /**
             * @description Per check type: diskspace {drive: "C:" or "/", threshold_percent 1-99 (alert below this % free)}; ping {target: host or IP}; cpuload {threshold_percent 1-100}; memory {threshold_percent 1-100}; winsvc {service_name}; script {script: script id, args?: string[], timeout?: 1-300 s}; eventlog {log_name: Application|System|Security|Setup, event_id?, event_type?: error|warning|information, search_text?}
             * @example {
             *       "drive": "C:",
             *       "threshold_percent": 10
             *     }
             */
            settings: {
                [key: string]: unknown;
            };
            /**
             * @description Consecutive failures before an alert
             * @default 1
             */
            fails_b4_alert?: number;
            /**
             * @description Seconds between two runs on the agent (it adds ±10 % jitter); a new or changed check runs at once
             * @default 120
             */
            run_interval?: number;
            /**
             * @description The severity of the check_failure alert this check opens
             * @default warning
             * @enum {string}
             */
            severity?: "info" | "warning" | "error";
            /**
             * @description false: the check keeps its settings and history but its agent stops running it, and its open check_failure alert is resolved by system; true again: the agent runs it at once
             * @default true
             */
            enabled?: boolean;
        };
        UpdateCheckDto: {
            name?: string;
            /** @description Replaces the settings; a name made from the settings (none was given) follows them. Per check type: diskspace {drive: "C:" or "/", threshold_percent 1-99 (alert below this % free)}; ping {target: host or IP}; cpuload {threshold_percent 1-100}; memory {threshold_percent 1-100}; winsvc {service_name}; script {script: script id, args?: string[], timeout?: 1-300 s}; eventlog {log_name: Application|System|Security|Setup, event_id?, event_type?: error|warning|information, search_text?} */
            settings?: {
                [key: string]: unknown;
            };
            fails_b4_alert?: number;
            /** @description Seconds between two runs on the agent (it adds ±10 % jitter); a new or changed check runs at once */
            run_interval?: number;
            /**
             * @description The severity of the check_failure alert this check opens (an alert already open keeps its own)
             * @enum {string}
             */
            severity?: "info" | "warning" | "error";
            /** @description false: the check keeps its settings and history but its agent stops running it, and its open check_failure alert is resolved by system; true again: the agent runs it at once */
            enabled?: boolean;
        };
        TaskDto: {
            id: number;
            name: string;
            /** @example 42 */
            agent: string;
            /** @description script id */
            script: number;
            /** @example 0 3 * * * */
            schedule: string;
            enabled: boolean;
            /** @description true: a run whose agent is not connected at its due time is queued for the agent (a queued script run, sent when it next connects, expiring after a day) and the task run, status queued, ends with that run's outcome; false: it ends agent_offline at once */
            queue_if_offline: boolean;
            /** @description true: while the agent is in maintenance (docs/policies.md, "Maintenance"), a due run is recorded with status skipped and not sent; false: it runs as usual */
            skip_in_maintenance: boolean;
            /**
             * Format: date-time
             * @description Next run (UTC); null while disabled
             */
            next_run_at: string | null;
            /**
             * Format: date-time
             * @description When the newest run started
             */
            last_run_at: string | null;
            /** @description Return code of the newest finished run (null when it had none: timed out, agent offline, interrupted) */
            last_retcode: number | null;
            /** Format: date-time */
            created_at: string;
            /** @description The agent's own task, or a policy's (managed by the policy: change it through the agent's policy overrides) */
            source: components["schemas"]["ItemSourceDto"];
        };
        SchedulePreviewDto: {
            /** @example 0 3 * * 1-5 */
            schedule: string;
            /**
             * @description The next 5 due times after now (UTC), the first being the next_run_at a task with this schedule would get
             * @example [
             *       "2026-11-30T03:00:00.000Z",
             *       "2026-12-01T03:00:00.000Z"
             *     ]
             */
            next_runs: string[];
        };
        TaskRunDto: {
            /** @example 17 */
            id: number;
            /**
             * @description task id
             * @example 3
             */
            task: number;
            /**
             * @description the agent it ran on
             * @example 42
             */
            agent: string;
            /**
             * Format: date-time
             * @description the due time of the schedule this run is for (one run per due time)
             */
            due_at: string;
            /**
             * Format: date-time
             * @description when the server took it up
             */
            started_at: string;
            /**
             * Format: date-time
             * @description null while running
             */
            finished_at: string | null;
            /**
             * @description running; succeeded (return code 0); failed (non-zero return code); timed_out (killed at the script's time-out, or no answer by then); agent_offline (the agent was not connected to the server that fired it: no script was sent; with queue_if_offline: its queued run expired); interrupted (the agent or the server went mid-run); queued (queue_if_offline: the agent was not connected at the due time, its script run waits for it; the run ends with that script run's outcome, failed when it is cancelled)
             * @enum {string}
             */
            status: "running" | "succeeded" | "failed" | "timed_out" | "agent_offline" | "interrupted" | "queued" | "skipped";
            /** @description the script's return code; null when it has none (running, timed out, agent offline, interrupted) */
            retcode: number | null;
            /** @description at most 64 KiB; stdout_truncated says when it was cut */
            stdout: string;
            /** @description at most 64 KiB; stderr_truncated says when it was cut */
            stderr: string;
            stdout_truncated: boolean;
            stderr_truncated: boolean;
            /** @description the script run that carried it (GET /api/v3/agents/{agent_id}/runs/{run_id}/; its live output is the events WebSocket's script.output); null when none was sent */
            script_run: number | null;
            /**
             * @description why the run did not succeed (the reason its task_failure alert gives); null for a run that succeeded or is running
             * @example agent refused: interpreter not found: cmd
             */
            error: string | null;
        };
        CreateTaskDto: {
            /** @example Nightly cleanup */
            name: string;
            /**
             * @description agent id
             * @example 42
             */
            agent: string;
            /**
             * @description script id
             * @example 3
             */
            script: number;
            /**
             * @description Cron expression in UTC: 5 fields (minute hour day month weekday), or 6 whose first is seconds (`*\/2 * * * * *`: every 2 seconds; every second is the finest)
             * @example 0 3 * * *
             */
            schedule: string;
            /** @default true */
            enabled?: boolean;
            /**
             * @description true: a run whose agent is not connected at its due time is queued for the agent (a queued script run, sent when it next connects, expiring after a day) and the task run, status queued, ends with that run's outcome; false: it ends agent_offline at once
             * @default false
             */
            queue_if_offline?: boolean;
            /**
             * @description true: while the agent is in maintenance (docs/policies.md, "Maintenance"), a due run is recorded with status skipped and not sent; false: it runs as usual
             * @default false
             */
            skip_in_maintenance?: boolean;
        };
        UpdateTaskDto: {
            name?: string;
            /** @description script id */
            script?: number;
            /** @description Cron expression in UTC: 5 fields, or 6 with seconds first; next_run_at restarts from now */
            schedule?: string;
            enabled?: boolean;
            /** @description true: a run whose agent is not connected at its due time is queued for the agent (a queued script run, sent when it next connects, expiring after a day) and the task run, status queued, ends with that run's outcome; false: it ends agent_offline at once */
            queue_if_offline?: boolean;
            /** @description true: while the agent is in maintenance (docs/policies.md, "Maintenance"), a due run is recorded with status skipped and not sent; false: it runs as usual */
            skip_in_maintenance?: boolean;
        };
        RunScriptDto: {
            /**
             * @description script id
             * @example 3
             */
            script: number;
            /**
             * @default wait
             * @enum {string}
             */
            output?: "wait" | "forget" | "collector";
            /**
             * @description output collector only: the agent custom field the trimmed stdout (at most 4 KiB) is stored in when the run finishes with return code 0 (docs/custom-fields.md); a value the field refuses fails the run (422, the reason as detail)
             * @example site_code
             */
            custom_field?: string;
            /** @description Arguments; default: the script's default args. {{agent.hostname}}, {{agent.<field>}}, {{site.name}}, {{site.<field>}}, {{client.name}}, {{client.<field>}} are filled in when the run is sent (docs/custom-fields.md); the run keeps them as given */
            args?: string[];
            /**
             * @description seconds
             * @default 90
             */
            timeout?: number;
            /**
             * @description true: an agent that is not connected gets the run when it next connects (202 {id, status: "queued"}, instead of 409), in the order queued, one at a time; a connected agent runs it at once as with output forget (202 {id, status: "running"}). output must then be forget or left out
             * @default false
             */
            queue?: boolean;
            /**
             * @description seconds a queued run waits for its agent before it becomes expired (never sent); only with queue: true
             * @default 86400
             */
            expires_in?: number;
        };
        ScriptRunResultDto: {
            /**
             * @description the run id (GET /api/v3/agents/{agent_id}/runs/{run_id}/)
             * @example 17
             */
            id: number;
            /**
             * @description seconds
             * @example 1.532
             */
            execution_time: string;
            /** @description null when the script was killed at its time-out */
            retcode: number | null;
            stdout: string;
            stderr: string;
            /** @description true when the agent killed the script at its time-out */
            timed_out: boolean;
        };
        ScriptRunAcceptedDto: {
            /** @example 17 */
            id: number;
            /**
             * @description running: sent to the agent; queued: waits for the agent to connect
             * @example running
             * @enum {string}
             */
            status: "running" | "queued";
        };
        ScriptRunDto: {
            /** @example 17 */
            id: number;
            /** @example 42 */
            agent: string;
            /** @description script id (null once unknown) */
            script: number | null;
            /** @example Disk cleanup */
            script_name: string;
            /** @example bash */
            shell: string;
            args: string[];
            /** @enum {string} */
            output: "wait" | "forget" | "collector";
            /** @example 90 */
            timeout: number;
            /** @description id of the API key that asked */
            requested_by_key: number | null;
            /**
             * @description queued (waits for its agent: runscript with queue: true, or a task with queue_if_offline), running, finished, failed, timed_out, interrupted; cancelled (a queued run cancelled by DELETE) and expired (a queued run whose expires_at passed first) were never sent
             * @enum {string}
             */
            status: "queued" | "running" | "finished" | "failed" | "timed_out" | "interrupted" | "cancelled" | "expired";
            retcode: number | null;
            /** @description at most 64 KiB; stdout_truncated says when it was cut */
            stdout: string;
            stderr: string;
            stdout_truncated: boolean;
            stderr_truncated: boolean;
            timed_out: boolean;
            /** @example 1.532 */
            execution_time: string | null;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description when it was sent to the agent; null while queued, and for a run never sent
             */
            started_at: string | null;
            /** Format: date-time */
            finished_at: string | null;
            /**
             * @description why the run did not finish as the script ended it (agent refused, invalid answer, agent disconnected, no answer); null once finished or while running
             * @example agent sent an invalid answer: /result/retcode must be <= 4294967295
             */
            error: string | null;
            /**
             * Format: date-time
             * @description a queued run: when it stops waiting for its agent (then expired); null for a run sent at once
             */
            expires_at: string | null;
        };
        PolicyTargetsOutDto: {
            clients?: number[];
            sites?: number[];
            tags_any?: string[];
            tags_all?: string[];
            platforms?: ("linux" | "darwin" | "windows")[];
            monitoring_types?: ("server" | "workstation")[];
        };
        PolicyExclusionsOutDto: {
            /**
             * @example [
             *       "42"
             *     ]
             */
            agents?: string[];
            clients?: number[];
            sites?: number[];
            tags?: string[];
        };
        PolicyCheckDto: {
            id: number;
            /**
             * @description the merge key (docs/policies.md, "The merge")
             * @example diskspace:C:
             */
            key: string;
            /** @enum {string} */
            check_type: "diskspace" | "ping" | "cpuload" | "memory" | "winsvc" | "script" | "eventlog";
            name: string;
            settings: {
                [key: string]: unknown;
            };
            run_interval: number;
            fails_b4_alert: number;
            /** @enum {string} */
            alert_severity: "info" | "warning" | "error";
        };
        PolicyTaskDto: {
            id: number;
            /** @example task:3:[]:0 3 * * * */
            key: string;
            name: string;
            /** @description script id */
            script: number;
            args: string[];
            schedule: string;
            timeout: number | null;
            queue_if_offline: boolean;
            skip_in_maintenance: boolean;
        };
        MaintenanceWindowOutDto: {
            schedule: string;
            duration_minutes: number;
            timezone: string;
        };
        PolicyDto: {
            id: number;
            name: string;
            description: string | null;
            enabled: boolean;
            enforced: boolean;
            priority: number;
            targets: components["schemas"]["PolicyTargetsOutDto"];
            exclude: components["schemas"]["PolicyExclusionsOutDto"];
            checks: components["schemas"]["PolicyCheckDto"][];
            tasks: components["schemas"]["PolicyTaskDto"][];
            maintenance_windows: components["schemas"]["MaintenanceWindowOutDto"][];
            /** @description how many agents the policy matches now */
            agents: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        PolicyTargetsDto: {
            /** @description client ids (any of them) */
            clients?: number[];
            /** @description site ids (any of them) */
            sites?: number[];
            /** @description the agent carries any of these tags: 1–64 characters of letters, digits, space and `_ . : -`, compared lowercase */
            tags_any?: string[];
            /** @description the agent carries all of these tags: 1–64 characters of letters, digits, space and `_ . : -`, compared lowercase */
            tags_all?: string[];
            platforms?: ("linux" | "darwin" | "windows")[];
            monitoring_types?: ("server" | "workstation")[];
        };
        PolicyExclusionsDto: {
            /**
             * @description agent ids (strings of digits, as agent ids are elsewhere)
             * @example [
             *       "42"
             *     ]
             */
            agents?: string[];
            clients?: number[];
            sites?: number[];
            /** @description any of these tags: 1–64 characters of letters, digits, space and `_ . : -`, compared lowercase */
            tags?: string[];
        };
        PolicyCheckInputDto: {
            /** @enum {string} */
            check_type: "diskspace" | "ping" | "cpuload" | "memory" | "winsvc" | "script" | "eventlog";
            /**
             * @description as a check of this type on one agent (POST /api/v3/checks/)
             * @example {
             *       "drive": "C:",
             *       "threshold_percent": 10
             *     }
             */
            settings: {
                [key: string]: unknown;
            };
            /** @default 120 */
            run_interval?: number;
            /** @default 1 */
            fails_b4_alert?: number;
            /**
             * @default warning
             * @enum {string}
             */
            alert_severity?: "info" | "warning" | "error";
            /** @description Default: made from the type and settings */
            name?: string;
        };
        PolicyTaskInputDto: {
            name: string;
            /** @description script id */
            script: number;
            /** @description the script's arguments */
            args?: string[];
            /**
             * @description Cron expression in UTC, as a task's schedule (5 fields, or 6 with seconds first)
             * @example 0 3 * * *
             */
            schedule: string;
            /** @description seconds; null: the script's default */
            timeout?: number | null;
            /** @default false */
            queue_if_offline?: boolean;
            /**
             * @description true: a run due while the agent is in maintenance is recorded as skipped
             * @default false
             */
            skip_in_maintenance?: boolean;
        };
        MaintenanceWindowDto: {
            /**
             * @description 5-field cron expression: when each window starts
             * @example 0 22 * * 6
             */
            schedule: string;
            duration_minutes: number;
            /**
             * @description IANA time zone of the schedule
             * @example Europe/Berlin
             */
            timezone: string;
        };
        PreviewPolicyDto: {
            description?: string | null;
            /**
             * @description false: the policy matches no agent
             * @default true
             */
            enabled?: boolean;
            /**
             * @description true: its items win over the agent's own and cannot be overridden per agent
             * @default false
             */
            enforced?: boolean;
            /**
             * @description lower applies first (wins the merge)
             * @default 500
             */
            priority?: number;
            /** @description every kind given must match (any of its values; tags_all: all); none: every agent */
            targets?: components["schemas"]["PolicyTargetsDto"];
            /** @description any exclusion wins over the targets */
            exclude?: components["schemas"]["PolicyExclusionsDto"];
            /** @description replaces the list; an item whose key stays keeps its id (and the agents' state of it) */
            checks?: components["schemas"]["PolicyCheckInputDto"][];
            /** @description replaces the list; an item whose key stays keeps its id */
            tasks?: components["schemas"]["PolicyTaskInputDto"][];
            maintenance_windows?: components["schemas"]["MaintenanceWindowDto"][];
            name?: string;
            /** @description a saved policy: the rest of the body are changes to it */
            id?: number;
        };
        PreviewAgentDto: {
            /** @example 42 */
            id: string;
            hostname: string;
        };
        PolicyPreviewDto: {
            /** @description how many agents the policy would match */
            agents: number;
            /** @description agents that would start matching (compared with the saved policy) */
            total_added: number;
            /** @description agents that would stop matching */
            total_removed: number;
            /** @description the first 50 added, by id */
            added: components["schemas"]["PreviewAgentDto"][];
            /** @description the first 50 removed, by id */
            removed: components["schemas"]["PreviewAgentDto"][];
        };
        CreatePolicyDto: {
            description?: string | null;
            /**
             * @description false: the policy matches no agent
             * @default true
             */
            enabled?: boolean;
            /**
             * @description true: its items win over the agent's own and cannot be overridden per agent
             * @default false
             */
            enforced?: boolean;
            /**
             * @description lower applies first (wins the merge)
             * @default 500
             */
            priority?: number;
            /** @description every kind given must match (any of its values; tags_all: all); none: every agent */
            targets?: components["schemas"]["PolicyTargetsDto"];
            /** @description any exclusion wins over the targets */
            exclude?: components["schemas"]["PolicyExclusionsDto"];
            /** @description replaces the list; an item whose key stays keeps its id (and the agents' state of it) */
            checks?: components["schemas"]["PolicyCheckInputDto"][];
            /** @description replaces the list; an item whose key stays keeps its id */
            tasks?: components["schemas"]["PolicyTaskInputDto"][];
            maintenance_windows?: components["schemas"]["MaintenanceWindowDto"][];
            /** @example Finance servers */
            name: string;
        };
        UpdatePolicyDto: {
            description?: string | null;
            /**
             * @description false: the policy matches no agent
             * @default true
             */
            enabled?: boolean;
            /**
             * @description true: its items win over the agent's own and cannot be overridden per agent
             * @default false
             */
            enforced?: boolean;
            /**
             * @description lower applies first (wins the merge)
             * @default 500
             */
            priority?: number;
            /** @description every kind given must match (any of its values; tags_all: all); none: every agent */
            targets?: components["schemas"]["PolicyTargetsDto"];
            /** @description any exclusion wins over the targets */
            exclude?: components["schemas"]["PolicyExclusionsDto"];
            /** @description replaces the list; an item whose key stays keeps its id (and the agents' state of it) */
            checks?: components["schemas"]["PolicyCheckInputDto"][];
            /** @description replaces the list; an item whose key stays keeps its id */
            tasks?: components["schemas"]["PolicyTaskInputDto"][];
            maintenance_windows?: components["schemas"]["MaintenanceWindowDto"][];
            name?: string;
        };
        PolicyRefDto: {
            id: number;
            name: string;
        };
        EffectiveSourceDto: {
            /** @enum {string} */
            type: "agent" | "policy";
            policy?: components["schemas"]["PolicyRefDto"];
            enforced?: boolean;
            /**
             * @description what matched: "tag finance", "client Acme", "all agents"
             * @example tag finance
             */
            reason?: string;
        };
        EffectiveCheckDto: {
            /** @description the agent's check/task row of this item (its state), when there is one */
            id: number | null;
            key: string;
            source: components["schemas"]["EffectiveSourceDto"];
            /** @description an override adjusts this item's settings on this agent */
            overridden: boolean;
            /** @description an override disables it on this agent (it keeps its key) */
            disabled: boolean;
            /** @description for an item that lost the merge: the source of the one that won its key */
            shadowed_by: components["schemas"]["EffectiveSourceDto"] | null;
            /** @enum {string} */
            check_type: "diskspace" | "ping" | "cpuload" | "memory" | "winsvc" | "script" | "eventlog";
            name: string;
            settings: {
                [key: string]: unknown;
            };
            run_interval: number;
            fails_b4_alert: number;
            /** @enum {string} */
            alert_severity: "info" | "warning" | "error";
        };
        EffectiveTaskDto: {
            /** @description the agent's check/task row of this item (its state), when there is one */
            id: number | null;
            key: string;
            source: components["schemas"]["EffectiveSourceDto"];
            /** @description an override adjusts this item's settings on this agent */
            overridden: boolean;
            /** @description an override disables it on this agent (it keeps its key) */
            disabled: boolean;
            /** @description for an item that lost the merge: the source of the one that won its key */
            shadowed_by: components["schemas"]["EffectiveSourceDto"] | null;
            name: string;
            script: number;
            args: string[];
            schedule: string;
            timeout: number | null;
            queue_if_offline: boolean;
            skip_in_maintenance: boolean;
        };
        MaintenanceSourceDto: {
            /** @enum {string} */
            type: "agent" | "policy";
            policy?: components["schemas"]["PolicyRefDto"];
        };
        EffectiveMaintenanceDto: {
            active: boolean;
            /**
             * Format: date-time
             * @description end of the window in force; null for manual maintenance or none
             */
            until: string | null;
            source: components["schemas"]["MaintenanceSourceDto"] | null;
        };
        EffectivePolicyDto: {
            checks: components["schemas"]["EffectiveCheckDto"][];
            tasks: components["schemas"]["EffectiveTaskDto"][];
            maintenance: components["schemas"]["EffectiveMaintenanceDto"];
        };
        PolicyOverrideOutDto: {
            policy: number;
            /** @description the policy name */
            policy_name: string;
            key: string;
            disabled: boolean;
            settings: {
                [key: string]: unknown;
            } | null;
            run_interval: number | null;
            fails_b4_alert: number | null;
        };
        PolicyOverrideDto: {
            /** @description policy id */
            policy: number;
            /** @description the item's merge key, as the effective policy shows it (e.g. diskspace:C:) */
            key: string;
            /**
             * @description true: the item does not run on this agent (its key stays taken: no lower policy fills it)
             * @default false
             */
            disabled?: boolean;
            /** @description a check's settings on this agent (validated as its check type's) */
            settings?: {
                [key: string]: unknown;
            } | null;
            run_interval?: number | null;
            fails_b4_alert?: number | null;
        };
        RegisterDiskDto: {
            /** @example / */
            device: string;
            /** @example 120.5 GB */
            free: string;
            /** @example 475.8 GB */
            total: string;
            /**
             * @description percent used
             * @example 75
             */
            percent: number;
        };
        RegisterAgentDto: {
            /**
             * @description The device's own name (stored as the agent's os_hostname). It is also the agent's hostname, which with the client identifies the agent across re-enrollments, unless the deployment was made by the enrollment function: then the hostname the function was asked for is
             * @example acme-ws-01
             */
            hostname: string;
            /** @enum {string} */
            plat: "windows" | "darwin" | "linux";
            /** @example Ubuntu 24.04.1 LTS */
            operating_system?: string;
            /** @example x64 */
            arch?: string;
            /**
             * @description agent software version
             * @example 0.1.0
             */
            version: string;
            /** @example Intel(R) Core(TM) i7 */
            cpu_model?: string;
            /**
             * @description gigabytes
             * @example 15.6
             */
            total_ram?: number;
            disks?: components["schemas"]["RegisterDiskDto"][];
            /** @example 203.0.113.7 */
            public_ip?: string;
            /** @example 10.0.0.12 */
            local_ip?: string;
            /** @example alice */
            logged_in_username?: string;
            /**
             * @default workstation
             * @enum {string}
             */
            monitoring_type?: "server" | "workstation";
            /**
             * @description Hex SHA-256 of the platform's machine id (Linux /etc/machine-id, macOS IOPlatformUUID, Windows MachineGuid), never the raw id; stored hashed, as a fact (the enrollment_conflict alert says whether it matches). It proves nothing: any local user can read a machine id
             * @example 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
             */
            hardware_id?: string;
            /**
             * @description With agent_secret, from the previous installation's state file: proves a re-enrollment of this hostname is the same installation. Both or neither
             * @example 42
             */
            agent_id?: string;
            /** @description The current agent secret, with agent_id (the previous installation's state file). Both or neither */
            agent_secret?: string;
        };
        RegisteredAgentDto: {
            /**
             * @description The agent id: the same for every re-enrollment of this hostname under this client (proven by the secret, or allowed by an operator)
             * @example 42
             */
            agent_id: string;
            /** @description The secret the agent authenticates with; shown only in this answer, stored as a hash. A re-enrollment replaces it */
            agent_secret: string;
            /**
             * @description The name the agent is registered under (its hostname in the agent list): the hostname the enrollment function was asked for when it made the deployment, else the hostname sent. The name sent is kept as the agent's os_hostname
             * @example ACME-WS-01
             */
            hostname: string;
            /**
             * @description client id
             * @example 1
             */
            client: number;
            /**
             * @description site id (the deployment's)
             * @example 1
             */
            site: number;
            /**
             * @description True when this hostname was already enrolled under this client and the request carried the agent's current secret, or an operator allowed the re-enrollment (the same agent_id is kept)
             * @example false
             */
            reenrolled: boolean;
        };
        ReenrollAllowedDto: {
            /**
             * Format: date-time
             * @description Until when the next registration of the agent's hostname may take the agent over (now + 24 h); used once
             * @example 2026-11-29T10:15:00.000Z
             */
            allowed_until: string;
        };
        SystemJobDto: {
            /**
             * @description The job (docs/decisions.md, "Periodic jobs", lists them)
             * @example presence.flush
             */
            name: string;
            /**
             * Format: uuid
             * @description The instance (a server process; a new id at each start)
             */
            instance: string;
            /**
             * @description every-instance: each instance runs it; cluster-once: the instance that leads it does
             * @enum {string}
             */
            mode: "every-instance" | "cluster-once";
            /**
             * @description Seconds from the end of a run to the next (each wait ± its jitter)
             * @example 5
             */
            interval_seconds: number;
            /**
             * @description degraded after 3 failed runs in a row; ok again after a run that succeeds
             * @enum {string}
             */
            state: "ok" | "degraded";
            /** @description Runs on this instance since it started (a cluster-once job led elsewhere does not run here) */
            runs: number;
            /** @description Of them, the runs that failed (threw, or could not tell the lead) */
            failures: number;
            /**
             * Format: date-time
             * @description null: never run here
             */
            last_started_at: string | null;
            /** @example 1.25 */
            last_duration_ms: number | null;
            /** @description The last run's error; null when it succeeded */
            last_error: string | null;
            /**
             * Format: date-time
             * @description When its timer fires next; null while a run is under way
             */
            next_run_at: string | null;
        };
        NotificationDto: {
            id: number;
            name: string;
            /** @enum {string} */
            type: "webhook" | "email" | "slack" | "teams";
            /** @description webhook, slack, teams */
            url: string | null;
            /** @description email: the recipients ([] for other types) */
            to: string[];
            /** @description Whether bodies are signed (the secret itself is never answered) */
            has_secret: boolean;
            /** @description The names of the extra headers (their values are never answered) */
            header_names: string[];
            /** @enum {string} */
            min_severity: "info" | "warning" | "error";
            events: ("alert.created" | "alert.resolved" | "alert.acknowledged" | "agent.offline" | "agent.overdue" | "agent.online" | "task.run" | "enrollment.completed")[];
            /** @description []: every client */
            clients: number[];
            enabled: boolean;
            /** @description Why the server disabled it (a 410 from the receiver) */
            disabled_reason: string | null;
            /** @description The circuit breaker (docs/notifications.md): true when every attempt has failed for RMM_NOTIFY_CIRCUIT_MINUTES; its deliveries then wait, one probe at a time is sent every fifth of that time, and the next success closes it */
            circuit_open: boolean;
            /** @description Why the circuit is open: since when every attempt has failed, and the last failure; null when closed */
            circuit_reason: string | null;
            /** @description When the circuit opened; null when closed */
            circuit_opened_at: string | null;
            /** @description Since when every attempt has failed (the first failure after a success); null while it delivers */
            failing_since: string | null;
            /** @description The last failed attempt's reason, while failing_since is set */
            last_failure: string | null;
            created_at: string;
            updated_at: string;
        };
        CreateNotificationDto: {
            /** @example On-call webhook */
            name: string;
            /** @enum {string} */
            type: "webhook" | "email" | "slack" | "teams";
            /**
             * @description webhook, slack, teams: the http(s) URL POSTed to (Slack and Teams: the incoming-webhook URL). Private, loopback and link-local addresses are refused unless RMM_NOTIFY_ALLOW_PRIVATE=true
             * @example https://hooks.example.com/rmm
             */
            url?: string;
            /**
             * @description email: one address or a list of 1-20
             * @example [
             *       "oncall@example.com"
             *     ]
             */
            to?: string[];
            /** @description Signs every webhook body: X-RMM-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">. Write-only (answers say has_secret) */
            secret?: string;
            /** @description Extra request headers (name → value, at most 20), e.g. {"Authorization": "Bearer …"}. Not Host, Content-Length, Content-Type, User-Agent, hop-by-hop headers or X-RMM-*. Write-only: answers list header_names */
            headers?: {
                [key: string]: string;
            };
            /**
             * @description The least severity sent: an alert has its own; agent.offline warning, agent.overdue error, agent.online info, a failed task.run error, enrollment.completed info
             * @enum {string}
             */
            min_severity: "info" | "warning" | "error";
            /**
             * @description The events this channel is sent (task.run: only runs that did not succeed). An event whose severity is below min_severity can never be sent: 400 naming it (agent.online listed with agent.offline is sent whatever min_severity, after each offline it recovers)
             * @example [
             *       "alert.created",
             *       "agent.overdue"
             *     ]
             */
            events: ("alert.created" | "alert.resolved" | "alert.acknowledged" | "agent.offline" | "agent.overdue" | "agent.online" | "task.run" | "enrollment.completed")[];
            /** @description Only agents of these clients (client ids); empty or absent: every client. A client-limited key must name clients, all its own */
            clients?: number[];
        };
        PatchNotificationDto: {
            name?: string;
            /** @description webhook, slack, teams: the http(s) URL POSTed to (Slack and Teams: the incoming-webhook URL). Private, loopback and link-local addresses are refused unless RMM_NOTIFY_ALLOW_PRIVATE=true */
            url?: string;
            /** @description email: one address or a list of 1-20 */
            to?: string[];
            /** @description Signs every webhook body: X-RMM-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">. Write-only (answers say has_secret); null removes it */
            secret?: string | null;
            /** @description Extra request headers (name → value, at most 20), e.g. {"Authorization": "Bearer …"}. Not Host, Content-Length, Content-Type, User-Agent, hop-by-hop headers or X-RMM-*. Write-only: answers list header_names; replaces them all; null or {} removes them */
            headers?: {
                [key: string]: string;
            } | null;
            /** @enum {string} */
            min_severity?: "info" | "warning" | "error";
            events?: ("alert.created" | "alert.resolved" | "alert.acknowledged" | "agent.offline" | "agent.overdue" | "agent.online" | "task.run" | "enrollment.completed")[];
            /** @description Only agents of these clients (client ids); empty or absent: every client. A client-limited key must name clients, all its own */
            clients?: number[];
            /** @description false stops the channel; true turns it on again (after a 410 disabled it) */
            enabled?: boolean;
        };
        DeliveryDto: {
            /** @description The X-RMM-Delivery of every attempt (and the body's id) */
            id: string;
            /** @description The event, or notification.test */
            event: string;
            /** @enum {string} */
            severity: "info" | "warning" | "error";
            /** @enum {string} */
            status: "pending" | "delivered" | "failed";
            attempts: number;
            /** @description HTTP status (webhook, slack, teams) or SMTP reply code (email) of the last attempt */
            last_status_code: number | null;
            last_error: string | null;
            created_at: string;
            /** @description pending: when the next attempt is due; null otherwise */
            next_attempt_at: string | null;
            delivered_at: string | null;
        };
        TestResultDto: {
            /** @description Whether the receiver took it (2xx, or accepted by the SMTP server) */
            delivered: boolean;
            /** @description The HTTP status or SMTP reply code; null when there was no answer */
            status_code: number | null;
            error: string | null;
            delivery: components["schemas"]["DeliveryDto"];
        };
        FileEntryDto: {
            name: string;
            /** @enum {string} */
            type: "file" | "dir" | "link" | "other";
            /** @description Bytes (a link: the link itself) */
            size: number;
            /**
             * @description Permission bits, octal
             * @example 0644
             */
            mode: string;
            /** Format: date-time */
            mtime: string;
        };
        FileListDto: {
            /** @description The directory as the agent resolved it */
            path: string;
            /** @description At most 1,000 entries, by name */
            entries: components["schemas"]["FileEntryDto"][];
            /** @description Give it as `cursor` for the next page; null on the last page */
            next_cursor: string | null;
        };
        StartUploadDto: {
            /**
             * @description Where the file goes, an absolute path on the agent (its directory must exist)
             * @example /opt/tools/setup.sh
             */
            path: string;
            /** @description The whole file, in bytes (at most 4 GiB) */
            size: number;
            /** @description The whole file's SHA-256, hexadecimal: the agent checks it before the file is put in place */
            sha256: string;
            /**
             * @description Replace a file already there (else 409 file exists)
             * @default false
             */
            overwrite?: boolean;
        };
        UploadStartedDto: {
            /** Format: uuid */
            upload_id: string;
            /**
             * @description The most bytes one PUT may carry
             * @example 1048576
             */
            chunk_size: number;
            /** @description Bytes the agent already has (0 for a new upload): the first PUT's offset */
            received: number;
        };
        UploadProgressDto: {
            /** @description Bytes the agent has: the next PUT's offset */
            received: number;
            /**
             * @description done: the file is in place, checked
             * @enum {string}
             */
            status: "open" | "done";
            /** @description status done: the SHA-256 the agent computed */
            sha256?: string;
        };
        UploadDto: {
            /** Format: uuid */
            upload_id: string;
            path: string;
            size: number;
            /** @description Bytes the agent has: the next PUT's offset */
            received: number;
            /** @enum {string} */
            status: "open" | "done" | "failed" | "expired";
        };
        OpenTerminalDto: {
            /**
             * @description columns
             * @example 80
             */
            cols: number;
            /**
             * @description rows
             * @example 24
             */
            rows: number;
            /**
             * @description The shell to run (a program the agent's user may run); default: the agent's (bash or sh, zsh on macOS, PowerShell on Windows)
             * @example /bin/bash
             */
            shell?: string;
        };
        TerminalTicketDto: {
            /** Format: uuid */
            session_id: string;
            /**
             * @description the WebSocket to open (same host), by the same caller, once, within expires_in seconds
             * @example /rmm/terminal/6f1c…/
             */
            url: string;
            /** @example 60 */
            expires_in: number;
        };
        TerminalSessionDto: {
            /** Format: uuid */
            id: string;
            /** @example 42 */
            agent_id: string;
            /**
             * @description who opened it: the operator's e-mail or the key's name
             * @example tech@example.com
             */
            opened_by: string;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description when the WebSocket was accepted; null: not (yet)
             */
            opened_at: string | null;
            /** Format: date-time */
            closed_at: string | null;
            /** @description bytes from the caller to the shell */
            bytes_in: number;
            /** @description bytes from the shell to the caller */
            bytes_out: number;
            /**
             * @description null while open; exit (the shell exited), closed (the caller closed it), idle, max_duration, agent_offline, ended_by_admin, expired (the ticket was never used)
             * @enum {string|null}
             */
            end_reason: "exit" | "closed" | "idle" | "max_duration" | "agent_offline" | "ended_by_admin" | "expired" | null;
            /** @description the shell's exit code (end_reason exit) */
            exit_code: number | null;
        };
        /** @description PostgREST's error body */
        PostgrestErrorDto: {
            /** @description PGRST… or a PostgreSQL SQLSTATE */
            code: string;
            message: string;
            details?: string | null;
            hint?: string | null;
        };
        /** @description The API gateway's answer to a missing or unknown apikey (Supabase's) */
        GatewayErrorDto: {
            message: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    agentPingPing: {
        parameters: {
            query?: never;
            header: {
                /** @description The agent's id (state.json agent_id) */
                "X-Agent-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentPingDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: no X-Agent-Id, no bearer, or the secret is not this agent's (deleted, re-enrolled) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    healthLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LivenessDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    healthReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReadinessDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unavailable now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReadinessDto"];
                };
            };
        };
    };
    authToken: {
        parameters: {
            query: {
                /** @description password: the body is {email, password}; refresh_token: the body is {refresh_token}. Anything else: 400 unsupported_grant_type */
                grant_type: "password" | "refresh_token";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordGrantDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponseDto"];
                };
            };
            /** @description invalid_credentials, refresh_token_not_found, refresh_token_already_used */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description apikey missing or unknown: the gateway's {message} */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayErrorDto"] | components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 413,
                     *       "error_code": "request_too_large",
                     *       "msg": "Request body is too large"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 415,
                     *       "error_code": "validation_failed",
                     *       "msg": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description over_request_rate_limit, with Retry-After (seconds): too many failed sign-ins for the account or the client address, or too many sign-ins in progress */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 429,
                     *       "error_code": "over_request_rate_limit",
                     *       "msg": "Request rate limit reached"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 503,
                     *       "error_code": "unexpected_failure",
                     *       "msg": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
        };
    };
    authUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoTrueUserDto"];
                };
            };
            /** @description apikey missing or unknown (the gateway's {message}), or no bearer token (no_authorization) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayErrorDto"] | components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description bad_jwt, user_not_found, session_not_found */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 403,
                     *       "error_code": "bad_jwt",
                     *       "msg": "invalid JWT: unable to parse or verify signature, token is expired"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 429,
                     *       "error_code": "over_request_rate_limit",
                     *       "msg": "Request rate limit reached"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 503,
                     *       "error_code": "unexpected_failure",
                     *       "msg": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
        };
    };
    authLogout: {
        parameters: {
            query?: {
                /** @description global (the default): all the user's sessions; local: this one; others: all but this one. Anything else: 400 */
                scope?: "global" | "local" | "others";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Sessions ended; their refresh tokens no longer work */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation_failed: Unsupported logout scope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 400,
                     *       "error_code": "validation_failed",
                     *       "msg": "Unsupported logout scope"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description apikey missing or unknown (the gateway's {message}), or no bearer token (no_authorization) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayErrorDto"] | components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description The bearer token is invalid or its session ended (bad_jwt, session_not_found) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 403,
                     *       "error_code": "bad_jwt",
                     *       "msg": "invalid JWT: unable to parse or verify signature, token is expired"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 429,
                     *       "error_code": "over_request_rate_limit",
                     *       "msg": "Request rate limit reached"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 503,
                     *       "error_code": "unexpected_failure",
                     *       "msg": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
        };
    };
    authAdminList: {
        parameters: {
            query?: {
                /** @description Users per page (anything else: 50; at most 1000) */
                per_page?: number;
                /** @description Page number, from 1 (anything else: 1) */
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminUserListDto"];
                };
            };
            /** @description apikey missing or unknown: the gateway's {message} */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayErrorDto"] | components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description The caller is not the service role (not_admin), or its token is invalid (bad_jwt) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 429,
                     *       "error_code": "over_request_rate_limit",
                     *       "msg": "Request rate limit reached"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 503,
                     *       "error_code": "unexpected_failure",
                     *       "msg": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
        };
    };
    authAdminCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminCreateUserDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoTrueUserDto"];
                };
            };
            /** @description validation_failed: email over 254 characters, password over 1024, user_metadata deeper than 8 levels or over 16 KiB */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 400,
                     *       "error_code": "validation_failed",
                     *       "msg": "Unable to validate email address: invalid format"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description apikey missing or unknown: the gateway's {message} */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayErrorDto"] | components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description The caller is not the service role (not_admin), or its token is invalid (bad_jwt) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 413,
                     *       "error_code": "request_too_large",
                     *       "msg": "Request body is too large"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 415,
                     *       "error_code": "validation_failed",
                     *       "msg": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description email_exists, weak_password */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 422,
                     *       "error_code": "email_exists",
                     *       "msg": "A user with this email address has already been registered"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description over_request_rate_limit, Retry-After: 1: too many passwords being hashed now */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 429,
                     *       "error_code": "over_request_rate_limit",
                     *       "msg": "Request rate limit reached: too many sign-ins in progress, retry in a moment"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 503,
                     *       "error_code": "unexpected_failure",
                     *       "msg": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
        };
    };
    authAdminGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoTrueUserDto"];
                };
            };
            /** @description apikey missing or unknown: the gateway's {message} */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayErrorDto"] | components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description The caller is not the service role (not_admin), or its token is invalid (bad_jwt) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description user_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 404,
                     *       "error_code": "user_not_found",
                     *       "msg": "User not found"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 414,
                     *       "error_code": "validation_failed",
                     *       "msg": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 429,
                     *       "error_code": "over_request_rate_limit",
                     *       "msg": "Request rate limit reached"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 503,
                     *       "error_code": "unexpected_failure",
                     *       "msg": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
        };
    };
    authAdminDelete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted: an empty object */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description apikey missing or unknown: the gateway's {message} */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayErrorDto"] | components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description The caller is not the service role (not_admin), or its token is invalid (bad_jwt) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description user_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 404,
                     *       "error_code": "user_not_found",
                     *       "msg": "User not found"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 414,
                     *       "error_code": "validation_failed",
                     *       "msg": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 429,
                     *       "error_code": "over_request_rate_limit",
                     *       "msg": "Request rate limit reached"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 503,
                     *       "error_code": "unexpected_failure",
                     *       "msg": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["GoTrueErrorDto"];
                };
            };
        };
    };
    restRead: {
        parameters: {
            query?: {
                /** @description Columns to return, comma-separated, optionally renamed (alias:column); * for all. Embedded resources are not served (400 PGRST200) */
                select?: string;
                /** @description Column filters, one query parameter per column: `column=operator.value` (several filters: AND). Operators: eq, neq, gt, gte, lt, lte, in, is, like, ilike, each optionally preceded by not. (e.g. `not.is.null`). in takes a list: `in.(a,b)`; is takes null, true, false or unknown; like/ilike take * (or %) as the wildcard. A value is at most 1024 characters, a like pattern 256 with at most 8 wildcards. or= and and= logic trees are not served (400 PGRST100). Here: a JSON object of column → filter. */
                filter?: {
                    [key: string]: string;
                };
                /** @description column[.asc|.desc][.nullsfirst|.nullslast], comma-separated */
                order?: string;
                /** @description At most this many rows (and never more than 1000) */
                limit?: number;
                /** @description Skip this many rows */
                offset?: number;
            };
            header?: {
                /** @description Comma-separated preferences; unknown ones are ignored. count=exact (or planned, estimated) adds the total to Content-Range and answers 206 when the page is partial. */
                Prefer?: string;
                /** @description The schema: only public is served (anything else: 406 PGRST106) */
                "Accept-Profile"?: "public";
            };
            path: {
                table: "user_profiles" | "enrollment_log";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rows; Content-Range says which (first-last/total, total * unless counted) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    }[];
                    "application/vnd.pgrst.object+json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Partial content: with Prefer: count=exact, when the rows are fewer than the total */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    }[];
                    "application/vnd.pgrst.object+json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST100",
                     *       "details": "unknown operator; expected one of eq, neq, gt, gte, lt, lte, in, is, like, ilike, optionally preceded by not.",
                     *       "hint": null,
                     *       "message": "failed to parse filter (zz.1)"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description No or unknown apikey (the gateway's {message}), or a bad token (PGRST301/PGRST303); 42501 for anon */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayErrorDto"] | components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description 42501: the role may not do this (row-level security, column grants) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "42501",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "permission denied for table enrollment_log"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description Not found: the path names nothing */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST205",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "Could not find the table 'public.agents' in the schema cache"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description The Accept or Accept-Profile header asks for what this server does not give */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST000",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description The caller's requests per minute (PLATFORM_RATE_LIMIT_PER_USER_PER_MINUTE) are spent; Retry-After says when to retry */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST000",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "Too many requests: at most 300 per minute"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST000",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
        };
    };
    restInsert: {
        parameters: {
            query?: {
                /** @description With Prefer: resolution=…: the unique columns that decide a duplicate (comma-separated; default: the primary key) */
                on_conflict?: string;
                /** @description Columns to return, comma-separated, optionally renamed (alias:column); * for all. Embedded resources are not served (400 PGRST200) */
                select?: string;
            };
            header?: {
                /** @description The schema: only public is served (anything else: 406 PGRST106) */
                "Content-Profile"?: "public";
                /** @description Comma-separated preferences; unknown ones are ignored. return=representation answers the rows (201), return=minimal (the default) nothing (201, no body); count=exact adds the total to Content-Range. resolution=merge-duplicates updates a duplicate; resolution=ignore-duplicates skips it. */
                Prefer?: string;
            };
            path: {
                table: "user_profiles" | "enrollment_log";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never> | Record<string, never>[];
            };
        };
        responses: {
            /** @description Inserted; with Prefer: return=representation, the rows */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    }[];
                    "application/vnd.pgrst.object+json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST100",
                     *       "details": "unknown operator; expected one of eq, neq, gt, gte, lt, lte, in, is, like, ilike, optionally preceded by not.",
                     *       "hint": null,
                     *       "message": "failed to parse filter (zz.1)"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description No or unknown apikey (the gateway's {message}), or a bad token (PGRST301/PGRST303); 42501 for anon */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayErrorDto"] | components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description 42501: the role may not do this (row-level security, column grants) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "42501",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "permission denied for table enrollment_log"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description Not found: the path names nothing */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST205",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "Could not find the table 'public.agents' in the schema cache"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description The Accept or Accept-Profile header asks for what this server does not give */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description A row conflicts with another (unique key) or names a row that does not exist (foreign key) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "23505",
                     *       "details": "Key (id)=(7d3c4a52-5a1e-4b9c-8d0e-0c1f2a3b4c5d) already exists.",
                     *       "hint": null,
                     *       "message": "duplicate key value violates unique constraint \"user_profiles_pkey\""
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST000",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "Request body is too large"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST000",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST107",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "rest_unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description The caller's requests per minute (PLATFORM_RATE_LIMIT_PER_USER_PER_MINUTE) are spent; Retry-After says when to retry */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST000",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "Too many requests: at most 300 per minute"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST000",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
        };
    };
    restRemove: {
        parameters: {
            query?: {
                /** @description Column filters, one query parameter per column: `column=operator.value` (several filters: AND). Operators: eq, neq, gt, gte, lt, lte, in, is, like, ilike, each optionally preceded by not. (e.g. `not.is.null`). in takes a list: `in.(a,b)`; is takes null, true, false or unknown; like/ilike take * (or %) as the wildcard. A value is at most 1024 characters, a like pattern 256 with at most 8 wildcards. or= and and= logic trees are not served (400 PGRST100). Here: a JSON object of column → filter. */
                filter?: {
                    [key: string]: string;
                };
                /** @description Columns to return, comma-separated, optionally renamed (alias:column); * for all. Embedded resources are not served (400 PGRST200) */
                select?: string;
            };
            header?: {
                /** @description The schema: only public is served (anything else: 406 PGRST106) */
                "Content-Profile"?: "public";
                /** @description Comma-separated preferences; unknown ones are ignored. return=representation answers the rows (200), return=minimal (the default) nothing (204); count=exact adds the total to Content-Range. */
                Prefer?: string;
            };
            path: {
                table: "user_profiles" | "enrollment_log";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prefer: return=representation: the deleted rows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    }[];
                    "application/vnd.pgrst.object+json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Deleted (Content-Range *\/n); no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST100",
                     *       "details": "unknown operator; expected one of eq, neq, gt, gte, lt, lte, in, is, like, ilike, optionally preceded by not.",
                     *       "hint": null,
                     *       "message": "failed to parse filter (zz.1)"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description No or unknown apikey (the gateway's {message}), or a bad token (PGRST301/PGRST303); 42501 for anon */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayErrorDto"] | components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description 42501: the role may not do this (row-level security, column grants) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "42501",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "permission denied for table enrollment_log"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description Not found: the path names nothing */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST205",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "Could not find the table 'public.agents' in the schema cache"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description The Accept or Accept-Profile header asks for what this server does not give */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description A row conflicts with another (unique key) or names a row that does not exist (foreign key) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "23505",
                     *       "details": "Key (id)=(7d3c4a52-5a1e-4b9c-8d0e-0c1f2a3b4c5d) already exists.",
                     *       "hint": null,
                     *       "message": "duplicate key value violates unique constraint \"user_profiles_pkey\""
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST000",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description The caller's requests per minute (PLATFORM_RATE_LIMIT_PER_USER_PER_MINUTE) are spent; Retry-After says when to retry */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST000",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "Too many requests: at most 300 per minute"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST000",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
        };
    };
    restUpdate: {
        parameters: {
            query?: {
                /** @description Column filters, one query parameter per column: `column=operator.value` (several filters: AND). Operators: eq, neq, gt, gte, lt, lte, in, is, like, ilike, each optionally preceded by not. (e.g. `not.is.null`). in takes a list: `in.(a,b)`; is takes null, true, false or unknown; like/ilike take * (or %) as the wildcard. A value is at most 1024 characters, a like pattern 256 with at most 8 wildcards. or= and and= logic trees are not served (400 PGRST100). Here: a JSON object of column → filter. */
                filter?: {
                    [key: string]: string;
                };
                /** @description Columns to return, comma-separated, optionally renamed (alias:column); * for all. Embedded resources are not served (400 PGRST200) */
                select?: string;
            };
            header?: {
                /** @description The schema: only public is served (anything else: 406 PGRST106) */
                "Content-Profile"?: "public";
                /** @description Comma-separated preferences; unknown ones are ignored. return=representation answers the rows (200), return=minimal (the default) nothing (204); count=exact adds the total to Content-Range. */
                Prefer?: string;
            };
            path: {
                table: "user_profiles" | "enrollment_log";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Prefer: return=representation: the updated rows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    }[];
                    "application/vnd.pgrst.object+json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Updated (Content-Range *\/n); no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST100",
                     *       "details": "unknown operator; expected one of eq, neq, gt, gte, lt, lte, in, is, like, ilike, optionally preceded by not.",
                     *       "hint": null,
                     *       "message": "failed to parse filter (zz.1)"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description No or unknown apikey (the gateway's {message}), or a bad token (PGRST301/PGRST303); 42501 for anon */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayErrorDto"] | components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description 42501: the role may not do this (row-level security, column grants) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "42501",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "permission denied for table enrollment_log"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description Not found: the path names nothing */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST205",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "Could not find the table 'public.agents' in the schema cache"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description The Accept or Accept-Profile header asks for what this server does not give */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description A row conflicts with another (unique key) or names a row that does not exist (foreign key) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "23505",
                     *       "details": "Key (id)=(7d3c4a52-5a1e-4b9c-8d0e-0c1f2a3b4c5d) already exists.",
                     *       "hint": null,
                     *       "message": "duplicate key value violates unique constraint \"user_profiles_pkey\""
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST000",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "Request body is too large"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST000",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST107",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "rest_unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description The caller's requests per minute (PLATFORM_RATE_LIMIT_PER_USER_PER_MINUTE) are spent; Retry-After says when to retry */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST000",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "Too many requests: at most 300 per minute"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "PGRST000",
                     *       "details": null,
                     *       "hint": null,
                     *       "message": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["PostgrestErrorDto"];
                };
            };
        };
    };
    enrollRmm: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EnrollRequestDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnrollResponseDto"];
                };
            };
            /** @description Invalid JSON body / hostname and platform are required / hostname or platform too long or holding control characters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "hostname and platform are required"
                     *     }
                     */
                    "application/json": components["schemas"]["EnrollErrorDto"];
                };
            };
            /** @description Missing Bearer token / Invalid user token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnrollErrorDto"];
                };
            };
            /** @description User profile not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "User profile not found"
                     *     }
                     */
                    "application/json": components["schemas"]["EnrollErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Request body is too large"
                     *     }
                     */
                    "application/json": components["schemas"]["EnrollErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["EnrollErrorDto"];
                };
            };
            /** @description The user's enrollments or requests per minute are spent; Retry-After says when to retry */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Too many requests"
                     *     }
                     */
                    "application/json": components["schemas"]["EnrollErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Deployment creation failed (the backend refused, failed or did not answer in time) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Deployment creation failed"
                     *     }
                     */
                    "application/json": components["schemas"]["EnrollErrorDto"];
                };
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["EnrollErrorDto"];
                };
            };
        };
    };
    enrollmentStatus: {
        parameters: {
            query: {
                /** @description The deployment_uuid POST /functions/v1/enroll-rmm answered */
                deployment_uuid: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnrollmentStatusDto"];
                };
            };
            /** @description deployment_uuid is required */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "deployment_uuid is required"
                     *     }
                     */
                    "application/json": components["schemas"]["EnrollErrorDto"];
                };
            };
            /** @description Missing Bearer token / Invalid user token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnrollErrorDto"];
                };
            };
            /** @description Enrollment not found (unknown, or another user's) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Enrollment not found"
                     *     }
                     */
                    "application/json": components["schemas"]["EnrollErrorDto"];
                };
            };
            /** @description The user's requests per minute are spent; Retry-After says when to retry */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Too many requests"
                     *     }
                     */
                    "application/json": components["schemas"]["EnrollErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Data platform unavailable (it failed or did not answer in time) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Data platform unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["EnrollErrorDto"];
                };
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["EnrollErrorDto"];
                };
            };
        };
    };
    alertsList: {
        parameters: {
            query?: {
                /** @description Page size */
                limit?: number;
                /** @description Rows to skip */
                offset?: number;
                /** @description agent id */
                agent?: string;
                severity?: "info" | "warning" | "error";
                alert_type?: "check_failure" | "task_failure" | "agent_overdue" | "enrollment_conflict" | "agent_update_halted" | "agent_build_failed";
                /** @description false (default): active alerts; true: resolved ones */
                resolved?: boolean;
                snoozed?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertDto"][];
                };
            };
            /** @description The input is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    alertsGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such alert */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    alertsAcknowledge: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such alert */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    alertsResolve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such alert */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    apiKeysList: {
        parameters: {
            query?: {
                /** @description Page size */
                limit?: number;
                /** @description Rows to skip */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyDto"][];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    apiKeysCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKeyDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiKeyDto"];
                };
            };
            /** @description validation error (e.g. clients: no client 9) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "name",
                     *           "message": "name should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    apiKeysGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    apiKeysRevoke: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    operatorAuthLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionDto"];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "email",
                     *           "message": "email should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid credentials'} for any wrong part; when the password was right and a second factor is missing or wrong: totp_required: true (the account has TOTP) and/or passkey_required: true with passkey_options and challenge_id (it has passkeys: finish with passkey in the body; docs/sso.md) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'password sign-in is turned off: …'}: RMM_PASSWORD_LOGIN=false and the operator is not break-glass (said only after the password was right) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Too many failed sign-ins for this account or address (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    operatorAuthMethods: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignInMethodsDto"];
                };
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    operatorAuthMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MeDto"];
                };
            };
            /** @description No live session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    operatorAuthSessionState: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionStateDto"];
                };
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    operatorAuthOrigin: {
        parameters: {
            query: {
                /** @description The console page's origin (location.origin) */
                origin: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OriginVerdictDto"];
                };
            };
            /** @description `origin` is not an http(s) origin */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No live session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    operatorAuthLogout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description {detail: 'CSRF check failed'} */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    accountReauth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReauthDto"];
            };
        };
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "password",
                     *           "message": "password should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid credentials'}; with totp_required: true when the code is missing or wrong */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Password sign-in is turned off (RMM_PASSWORD_LOGIN=false) for this operator; or the CSRF check failed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The account has no password: re-authenticate with a passkey or single sign-on */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "agent is not connected"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Too many failed sign-ins for this account or address (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    accountSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OperatorSessionDto"][];
                };
            };
            /** @description {detail: 'Invalid token'}: no live session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    accountEndOtherSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionsEndedDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: no live session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'CSRF check failed'}: a change without X-Requested-With: rmm-console */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    accountEndSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description {detail: 'Invalid token'}: no live session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'CSRF check failed'}: a change without X-Requested-With: rmm-console */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such session of yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    accountEnableTotp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TotpSetupDto"];
                };
            };
            /** @description {detail: 're-authentication required', step_up: true}: the session authenticated more than RMM_STEP_UP_MINUTES ago (docs/sso.md) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'CSRF check failed'}: a change without X-Requested-With: rmm-console */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    accountDisableTotp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description {detail: 're-authentication required', step_up: true}: the session authenticated more than RMM_STEP_UP_MINUTES ago (docs/sso.md) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'CSRF check failed'}: a change without X-Requested-With: rmm-console */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    operatorsList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OperatorDto"][];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    operatorsCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateOperatorDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OperatorDto"];
                };
            };
            /** @description The input is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "email",
                     *           "message": "email should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description An operator with this email exists */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "agent is not connected"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    operatorsGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OperatorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    operatorsUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateOperatorDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OperatorDto"];
                };
            };
            /** @description The input is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    operatorsSessions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OperatorSessionDto"][];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    operatorsEndSessions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    operatorsEnableTotp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TotpSetupDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    operatorsDisableTotp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    passkeysRegistrationOptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasskeyCeremonyDto"];
                };
            };
            /** @description No live session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'CSRF check failed'}: a change without X-Requested-With: rmm-console */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    passkeysList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasskeyDto"][];
                };
            };
            /** @description No live session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    passkeysRegister: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RegisterPasskeyDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasskeyDto"];
                };
            };
            /** @description The challenge is unknown, used or expired, or the answer does not verify (origin, RP id, user verification) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "challenge_id",
                     *           "message": "challenge_id should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No live session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'CSRF check failed'}: a change without X-Requested-With: rmm-console */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    passkeysRemove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No live session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'CSRF check failed'}: a change without X-Requested-With: rmm-console */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Not one of your passkeys */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    passkeysRename: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RenamePasskeyDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasskeyDto"];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "name",
                     *           "message": "name should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No live session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'CSRF check failed'}: a change without X-Requested-With: rmm-console */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Not one of your passkeys */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    passkeysSignInOptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasskeyCeremonyDto"];
                };
            };
            /** @description Too many failed sign-ins from this address, or more than 60 sign-ins begun from it within a minute (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    passkeysSignIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasskeyAnswerDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionDto"];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "challenge_id",
                     *           "message": "challenge_id should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid credentials'}: unknown passkey, used or expired challenge, a counter that did not increase, a disabled operator */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Too many failed sign-ins from this address (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    passkeysStepUpOptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasskeyCeremonyDto"];
                };
            };
            /** @description The operator has no passkey */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No live session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'CSRF check failed'}: a change without X-Requested-With: rmm-console */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    passkeysStepUp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasskeyAnswerDto"];
            };
        };
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "challenge_id",
                     *           "message": "challenge_id should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid credentials'}: the answer does not verify, or no live session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'CSRF check failed'}: a change without X-Requested-With: rmm-console */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    oidcLogin: {
        parameters: {
            query?: {
                /** @description 1: re-authenticate the current session instead of starting a new one */
                step_up?: unknown;
                /** @description A console page (/app/…) to come back to; anything else: /app/ */
                return_to?: unknown;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the provider; to /app/sign-in?error=not_configured (or oidc_failed) when it cannot begin */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    oidcCallback: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the console page (signed in), or /app/sign-in?error=oidc_failed|state_mismatch|no_access|email_in_use|no_email|disabled|provider_refused|step_up_mismatch|rate_limited|not_configured */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    clientsList: {
        parameters: {
            query?: {
                /** @description Page size */
                limit?: number;
                /** @description Rows to skip */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClientDto"][];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    clientsCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateClientDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClientDto"];
                };
            };
            /** @description validation error, or the name is taken */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "name",
                     *           "message": "name should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    clientsGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClientDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such client or site */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    clientsRename: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RenameDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClientDto"];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "name",
                     *           "message": "name should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such client or site */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    clientsRemove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description {detail: "client N still has M agent(s): delete or move them first"} */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such client or site */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    clientsPatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchClientDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClientDto"];
                };
            };
            /** @description validation error, no field given, or the name is taken */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such client or site */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    clientsSites: {
        parameters: {
            query?: {
                /** @description Page size */
                limit?: number;
                /** @description Rows to skip */
                offset?: number;
            };
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SiteDto"][];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such client or site */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    clientsCreateSite: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RenameDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SiteDto"];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "name",
                     *           "message": "name should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such client or site */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    clientsRenameSite: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
                /** @example 1 */
                siteId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RenameDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SiteDto"];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "name",
                     *           "message": "name should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such client or site */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    clientsRemoveSite: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
                /** @example 1 */
                siteId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description {detail: "site N still has M agent(s): delete or move them first"} */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such client or site */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    customFieldsList: {
        parameters: {
            query?: {
                /** @description Page size */
                limit?: number;
                /** @description Rows to skip */
                offset?: number;
                /** @description Only this scope's fields */
                scope?: "agent" | "site" | "client";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldDto"][];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    customFieldsCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCustomFieldDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldDto"];
                };
            };
            /** @description validation error (options missing or not allowed, a default the type refuses), the name is taken in that scope, or 200 fields exist */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "name",
                     *           "message": "name should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    customFieldsGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    customFieldsRemove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    customFieldsPatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchCustomFieldDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldDto"];
                };
            };
            /** @description validation error; {detail: "custom field x has values: …"}; an option a value holds removed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    agentsPutCustomFields: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                agentId: number;
            };
            cookie?: never;
        };
        /** @description {name: value}: a partial merge (fields not named keep their values); null clears a value */
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Every field of the scope after the change: its value, else its default, else null; a secret "********" when set */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description {detail: "unknown field agent.x" | "<name>: <why>", errors: [{field: <name>, message}]}: an unknown name, or a value its type refuses; nothing written */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such agent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    clientsPutCustomFields: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        /** @description {name: value}: a partial merge (fields not named keep their values); null clears a value */
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Every field of the scope after the change: its value, else its default, else null; a secret "********" when set */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description {detail: "unknown field agent.x" | "<name>: <why>", errors: [{field: <name>, message}]}: an unknown name, or a value its type refuses; nothing written */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such client */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    clientsPutSiteCustomFields: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
                /** @example 1 */
                siteId: number;
            };
            cookie?: never;
        };
        /** @description {name: value}: a partial merge (fields not named keep their values); null clears a value */
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Every field of the scope after the change: its value, else its default, else null; a secret "********" when set */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description {detail: "unknown field agent.x" | "<name>: <why>", errors: [{field: <name>, message}]}: an unknown name, or a value its type refuses; nothing written */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such client or site */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    auditList: {
        parameters: {
            query?: {
                /** @description Page size */
                limit?: number;
                /** @description Rows to skip */
                offset?: number;
                actor_kind?: "api_key" | "service_role" | "user" | "cli" | "anonymous" | "operator";
                /** @description An API key's id: that key's calls (refused ones included) */
                key?: number;
                /** @description HTTP method (CLI rows have none) */
                method?: "POST" | "PUT" | "PATCH" | "DELETE";
                /** @description Target starts with this (a path prefix) */
                path?: string;
                /** @description HTTP status answered */
                status?: number;
                /** @description At or after this time (ISO 8601) */
                since?: string;
                /** @description Before this time (ISO 8601) */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEntryDto"][];
                };
            };
            /** @description The input is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    agentDownloadDownload: {
        parameters: {
            query?: never;
            header?: {
                /** @description "<sha256>": 304 when the binary is that one */
                "If-None-Match"?: string;
                /** @description gzip: the compressed variant */
                "Accept-Encoding"?: string;
            };
            path: {
                target: "linux-amd64" | "linux-arm64" | "darwin-amd64" | "darwin-arm64" | "windows-amd64";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The binary (or its gzip, with Content-Encoding: gzip) */
            200: {
                headers: {
                    /** @description Hex SHA-256 of the binary (not of the gzip) */
                    "X-Checksum-Sha256"?: string;
                    /** @description "<sha256>" */
                    ETag?: string;
                    /** @description gzip when the gzip variant is sent */
                    "Content-Encoding"?: string;
                    /** @description attachment; filename="rmm-agent-<target>[.exe]" */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description If-None-Match names this binary */
            304: {
                headers: {
                    /** @description "<sha256>" */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description {detail: 'unknown target: X', targets: [the five targets]} */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "unknown target: linux-x64",
                     *       "targets": [
                     *         "linux-amd64",
                     *         "linux-arm64",
                     *         "darwin-amd64",
                     *         "darwin-arm64",
                     *         "windows-amd64"
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description {detail}: the binary could not be built on this server (the server's log says why) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the agent binary for darwin-arm64 could not be built on this server (its log says why)"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    agentUpdatesStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentUpdatesDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    agentUpdatesResume: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentUpdatesDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    deploymentsList: {
        parameters: {
            query?: {
                /** @description Page size */
                limit?: number;
                /** @description Rows to skip */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeploymentDto"][];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    deploymentsCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateDeploymentDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeploymentDto"];
                };
            };
            /** @description validation error: unknown client, site of another client, past expiry, unknown arch */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "site",
                     *           "message": "site 9 does not belong to client 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    deploymentsRevoke: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    downloadDownload: {
        parameters: {
            query?: {
                platform?: "linux" | "darwin" | "windows";
            };
            header?: never;
            path: {
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The installer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description an unknown `platform` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'deployment revoked'}, {detail: 'deployment expired'} or {detail: 'deployment used up'} (max_registrations reached) */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "deployment revoked"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}: too many attempts on this link from this address this minute; Retry-After says when to retry. Not recorded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    agentsList: {
        parameters: {
            query?: {
                /** @description Page size */
                limit?: number;
                /** @description Rows to skip */
                offset?: number;
                /** @description Exact hostname */
                hostname?: string;
                /** @description client id */
                client?: number;
                /** @description site id */
                site?: number;
                monitoring_type?: "server" | "workstation";
                /** @description Agents carrying every tag given (repeat it: ?tag=finance&tag=paris); matched lowercase. At most 50 */
                tag?: string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentDto"][];
                };
            };
            /** @description The input is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    agentsBulkTags: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkTagsDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkTagsResultDto"];
                };
            };
            /** @description The input is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "agents",
                     *           "message": "agents should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    agentsGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                agentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentDetailDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    agentsRemove: {
        parameters: {
            query?: {
                uninstall?: "true" | "false";
            };
            header?: never;
            path: {
                /** @example 1 */
                agentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    /** @description with uninstall=true: `sent` or `not connected` */
                    "X-Agent-Uninstall"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description uninstall is not true or false */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    agentsUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                agentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAgentDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentDetailDto"];
                };
            };
            /** @description The input is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    scriptsList: {
        parameters: {
            query?: {
                /** @description Page size */
                limit?: number;
                /** @description Rows to skip */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScriptDto"][];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    scriptsCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateScriptDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScriptDetailDto"];
                };
            };
            /** @description validation error, or the name is taken */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "name",
                     *           "message": "name should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    scriptsGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScriptDetailDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such script */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    scriptsReplace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateScriptDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScriptDetailDto"];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such script */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    scriptsRemove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such script */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    scriptsUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateScriptDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScriptDetailDto"];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such script */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    checksList: {
        parameters: {
            query?: {
                /** @description Page size */
                limit?: number;
                /** @description Rows to skip */
                offset?: number;
                /** @description agent id */
                agent?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckDto"][];
                };
            };
            /** @description The input is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    checksCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCheckDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckDto"];
                };
            };
            /** @description validation error (e.g. settings.threshold_percent), unknown agent or script */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "agent",
                     *           "message": "agent should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    checksGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such check */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    checksReplace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateCheckDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckDto"];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such check */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    checksRemove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such check */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    checksUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateCheckDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckDto"];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such check */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    checksHistory: {
        parameters: {
            query?: {
                /** @description Page size */
                limit?: number;
                /** @description Rows to skip */
                offset?: number;
            };
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckResultDto"][];
                };
            };
            /** @description The input is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such check */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    tasksList: {
        parameters: {
            query?: {
                /** @description Page size */
                limit?: number;
                /** @description Rows to skip */
                offset?: number;
                /** @description agent id */
                agent?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskDto"][];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    tasksCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTaskDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskDto"];
                };
            };
            /** @description validation error: schedule, agent, script */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "name",
                     *           "message": "name should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    tasksPreview: {
        parameters: {
            query: {
                /** @description A cron expression in UTC, as a task's schedule */
                schedule: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SchedulePreviewDto"];
                };
            };
            /** @description validation error naming schedule: not a cron expression of 5 or 6 fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    tasksGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such task */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    tasksReplace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateTaskDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskDto"];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such task */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    tasksRemove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such task */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    tasksUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateTaskDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskDto"];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such task */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    tasksRuns: {
        parameters: {
            query?: {
                /** @description Page size */
                limit?: number;
                /** @description Rows to skip */
                offset?: number;
            };
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskRunDto"][];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such task */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    tasksRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
                /** @example 1 */
                runId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskRunDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such task or run */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    agentsRunScript: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                agentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RunScriptDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScriptRunResultDto"];
                };
            };
            /** @description output forget (or queue: true, agent connected): the run is on its way, status running; queue: true, agent not connected: status queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScriptRunAcceptedDto"];
                };
            };
            /** @description validation error (script, output, args, timeout, queue, expires_in) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "script",
                     *           "message": "script should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such agent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'agent is not connected'}, at once (without queue: true) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "agent is not connected"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: "agent refused: <reason>"}: the agent would not or could not run it (an interpreter it lacks); the run is failed, with that reason as its error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "agent refused: interpreter not found: cmd"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After: the key's rate limit. {detail: 'too many queued runs for this agent'}: queue: true for an agent not connected that already has RMM_QUEUE_MAX_PER_AGENT (100) runs, or 10 MiB of bodies and arguments, queued; nothing is queued */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description {detail: 'agent disconnected'}: the agent went before it answered; the run is interrupted. {detail: 'agent sent an invalid answer'}: its answer is not one the protocol allows; the run is failed, its error saying what was wrong */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "agent disconnected"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: "agent did not answer within N s"}: no answer by the time-out + 5 s; the run is timed_out */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "agent did not answer within 60 s"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    agentsRuns: {
        parameters: {
            query?: {
                /** @description Page size */
                limit?: number;
                /** @description Rows to skip */
                offset?: number;
                /** @description e.g. collector: the newest collector run of a script is its latest value */
                output?: "wait" | "forget" | "collector";
                /** @description script id */
                script?: number;
                /** @description e.g. queued: the runs waiting for the agent to connect */
                status?: "queued" | "running" | "finished" | "failed" | "timed_out" | "interrupted" | "cancelled" | "expired";
            };
            header?: never;
            path: {
                /** @example 1 */
                agentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScriptRunDto"][];
                };
            };
            /** @description validation error (output, script, status, limit, offset) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such agent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    agentsRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                agentId: number;
                /** @example 1 */
                runId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScriptRunDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such agent or run */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    agentsCancelRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                agentId: number;
                /** @example 1 */
                runId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScriptRunDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such agent or run */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: "run 17 is running: only a queued run can be cancelled"}: it has started, or ended */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "agent is not connected"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    policiesList: {
        parameters: {
            query?: {
                /** @description Page size */
                limit?: number;
                /** @description Rows to skip */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyDto"][];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    policiesCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePolicyDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyDto"];
                };
            };
            /** @description validation error: items as per-agent checks and tasks, unknown clients, sites, agents or scripts, two items of one key */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "name",
                     *           "message": "name should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description the name is taken, or there are 500 policies */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "agent is not connected"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    policiesPreview: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PreviewPolicyDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyPreviewDto"];
                };
            };
            /** @description The input is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    policiesGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such policy (or one the caller may not see) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    policiesRemove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such policy (or one the caller may not see) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    policiesUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdatePolicyDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyDto"];
                };
            };
            /** @description The input is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such policy (or one the caller may not see) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description the name is taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "agent is not connected"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    effectivePolicyGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                agentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EffectivePolicyDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such agent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    agentsPolicyOverrides: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                agentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyOverrideOutDto"][];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such agent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    agentsSetPolicyOverrides: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                agentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PolicyOverrideDto"][];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyOverrideOutDto"][];
                };
            };
            /** @description validation error: no such policy, no item with that key, settings invalid for the check type */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such agent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: "enforced by policy <name>"}: an enforced policy's items cannot be overridden */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "agent is not connected"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    registrationRegister: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RegisterAgentDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegisteredAgentDto"];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "hostname",
                     *           "message": "hostname should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: "unknown deployment: …"}: no deployment has this token */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "unknown deployment: the enrollment token names none"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: "hostname already enrolled by another device"}: the hostname has an agent in this client, the request did not carry its current secret and no operator allowed a re-enrollment (POST /api/v3/agents/{id}/reenroll/, or delete the old agent) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "registration_hostname_enrolled"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: "deployment revoked: …"}, {detail: "deployment expired: …"} or {detail: "deployment used up: …"} (max_registrations reached) */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "deployment revoked: ask for a new installer"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: "rate limited"}: too many registrations through this deployment this minute; Retry-After says when to retry */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    agentBundleBundle: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description dist/agent/rmm-agent.js */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Rate limited; Retry-After says when to come back */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description {detail}: the agent bundle is not built on this server (npm run build:agent) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    agentsAllowReenrollment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                agentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReenrollAllowedDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such agent (or one of a client the caller may not see) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    systemListJobs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SystemJobDto"][];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    notificationsList: {
        parameters: {
            query?: {
                /** @description Page size */
                limit?: number;
                /** @description Rows to skip */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationDto"][];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    notificationsCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateNotificationDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationDto"];
                };
            };
            /** @description validation error (url, to, headers, events, clients; e-mail without SMTP_URL; a private address) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "name",
                     *           "message": "name should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    notificationsGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such channel (or one the key may not see) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    notificationsRemove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such channel (or one the key may not see) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    notificationsPatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchNotificationDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationDto"];
                };
            };
            /** @description validation error, or no field given */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such channel (or one the key may not see) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    notificationsTest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestResultDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such channel (or one the key may not see) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    notificationsDeliveries: {
        parameters: {
            query?: {
                /** @description Page size */
                limit?: number;
                /** @description Rows to skip */
                offset?: number;
            };
            header?: never;
            path: {
                /** @example 1 */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryDto"][];
                };
            };
            /** @description The input cannot be read or is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such channel (or one the key may not see) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    agentsFiles: {
        parameters: {
            query: {
                /** @description The directory, an absolute path on the agent */
                path: string;
                /** @description The previous page's next_cursor */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @example 1 */
                agentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileListDto"];
                };
            };
            /** @description validation error (path: required, absolute); {detail: "not a directory"} */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: "permission denied"}: the key lacks the scope, or the agent's user may not read it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such agent (or one of a client the caller may not see); the agent's {detail: "no such file or directory"} */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: "agent is offline"} */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "agent is not connected"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    agentsFileContent: {
        parameters: {
            query: {
                /** @description The file, an absolute path on the agent */
                path: string;
            };
            header?: {
                /** @description bytes=a-b, bytes=a- or bytes=-n (one range) */
                Range?: string;
            };
            path: {
                /** @example 1 */
                agentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The whole file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description The range asked for */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description validation error (path); {detail: "is a directory"} */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: "permission denied"} */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such agent (or one of a client the caller may not see); the agent's {detail: "no such file or directory"} */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: "agent is offline"} */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "agent is not connected"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: "range not satisfiable: …"}, Content-Range: bytes *\/size */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_range_not_satisfiable"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    agentsStartUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                agentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StartUploadDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadStartedDto"];
                };
            };
            /** @description validation error (path, size, sha256, overwrite); {detail: "not a directory"} / "is a directory" */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "path",
                     *           "message": "path should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: "permission denied"} */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such agent (or one of a client the caller may not see); the agent's {detail: "no such file or directory"} */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: "agent is offline"}; {detail: "file exists"} (without overwrite) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "agent is not connected"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    agentsUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                agentId: number;
                uploadId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such agent, or upload (another caller's included) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    agentsUploadChunk: {
        parameters: {
            query: {
                /** @description Where this chunk starts: the upload's `received` */
                offset: number;
            };
            header?: never;
            path: {
                /** @example 1 */
                agentId: number;
                uploadId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/octet-stream": string;
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadProgressDto"];
                };
            };
            /** @description validation error (offset) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such agent, or upload (another caller's included) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: "offset must be N: …", received: N}: another offset than received, or an upload no longer open; {detail: "another PUT of this upload is under way"}; {detail: "agent is offline"} */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "agent is not connected"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: "a chunk is at most 1048576 bytes"}, or past the upload's size */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: "checksum mismatch: expected <a>, got <b>"}: the upload failed, nothing left on the agent */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "agent refused: interpreter not found: cmd"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    agentsOpenTerminal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example 1 */
                agentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OpenTerminalDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TerminalTicketDto"];
                };
            };
            /** @description validation error (cols, rows: 1 to 1000; shell: printable, at most 255 characters) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "cols",
                     *           "message": "cols should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 're-authentication required', step_up: true}: an operator's session authenticated more than RMM_STEP_UP_MINUTES ago (docs/sso.md) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such agent (or one of a client the caller may not see) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: "agent is offline"} */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "agent is not connected"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is larger than this surface takes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "files_chunk_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description The body is not of a type this operation takes */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: "too many terminal sessions on this agent (at most 3)"} or "… for this caller (at most 10)"; or the rate limit */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    terminalSessionsList: {
        parameters: {
            query?: {
                /** @description Page size */
                limit?: number;
                /** @description Rows to skip */
                offset?: number;
                /** @description only this agent's sessions */
                agent?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TerminalSessionDto"][];
                };
            };
            /** @description validation error (agent, limit, offset) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "validation error",
                     *       "errors": [
                     *         {
                     *           "field": "limit",
                     *           "message": "limit must not be greater than 1000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    terminalSessionsRecording: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description asciicast v2 (newline-delimited JSON) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-asciicast": string;
                };
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such session, or none recorded */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
    terminalSessionsEnd: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ended (or being ended) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description {detail: 'Invalid token'}: missing, wrong, revoked or expired key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Invalid token"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'permission denied'}: the key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "permission denied"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description No such session */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: "the session has ended already"} */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "agent is not connected"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description URI Too Long: a path parameter over 100 characters */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description {detail: 'rate limited'}, with Retry-After (seconds) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "rate limited"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
            /** @description Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message} */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database has no free connection now; Retry-After says when to retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "the database is busy, retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["RmmErrorDto"];
                };
            };
        };
    };
}
