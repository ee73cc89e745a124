import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, MaxLength, Min, ValidateNested } from 'class-validator';
import { API_KEY_SCOPES, ApiKeyScope, OPERATOR_ROLES, OperatorEntity, OperatorRole } from '@app/entities';
import { ROLE_SCOPES } from '../../common/principal';
import { IsOptionalNotNull } from '../../common/optional-not-null';
import type { SessionRow } from './operator-sessions.repository';
import type { AccountFacts } from './operators.service';

/** A browser's answer to a passkey ceremony (navigator.credentials.get/create as @simplewebauthn/browser gives it). */
export class PasskeyAnswerDto {
  @ApiProperty({ format: 'uuid', description: 'The challenge_id the options came with (each is used once, for 5 minutes)' })
  @IsString()
  @MaxLength(64)
  challenge_id: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The credential as JSON (AuthenticationResponseJSON or RegistrationResponseJSON)' })
  @IsObject()
  response: Record<string, unknown>;
}

export class LoginDto {
  @ApiProperty({ example: 'ops@msp.example', maxLength: 254 })
  @IsString()
  @MaxLength(254)
  email: string;

  @ApiProperty({ example: 'correct horse battery', maxLength: 1024 })
  @IsString()
  @MaxLength(1024)
  password: string;

  @ApiPropertyOptional({ example: '123456', description: 'The TOTP code (or a recovery code) when the operator has TOTP set up', maxLength: 32 })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(32)
  totp?: string;

  @ApiPropertyOptional({ type: PasskeyAnswerDto, description: 'A passkey as the second factor: the answer to passkey_options of the 401 with passkey_required' })
  @IsOptionalNotNull()
  @ValidateNested()
  @Type(() => PasskeyAnswerDto)
  passkey?: PasskeyAnswerDto;
}

export class OriginQueryDto {
  @ApiProperty({ example: 'http://127.0.0.1:3000', maxLength: 200, description: "The console page's origin (location.origin)" })
  @IsString()
  @MaxLength(200)
  origin: string;
}

/** Whether the console at a page origin may open the events WebSockets with its session (common/http/origin.ts). */
export class OriginVerdictDto {
  @ApiProperty({ example: 'http://127.0.0.1:3000', description: 'The origin asked about, as browsers write it' }) origin: string;
  @ApiProperty({ description: 'Whether an events WebSocket upgrade from a page of this origin may use the session cookie' }) allowed: boolean;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Why not, with the setting that would allow it (PUBLIC_URL, RMM_CORS_ORIGINS); null when allowed',
    example: 'live updates refused for the page origin "http://127.0.0.1:3000": this server\'s console is at http://localhost:3000 (PUBLIC_URL names it); open the console at one of those, or set PUBLIC_URL=http://127.0.0.1:3000 (the address operators open) or add http://127.0.0.1:3000 to RMM_CORS_ORIGINS, and restart the server',
  })
  reason: string | null;
  @ApiProperty({ type: [String], example: ['http://localhost:3000'], description: "The console's origins: PUBLIC_URL's (without PUBLIC_URL, localhost, 127.0.0.1 and [::1] at the listening port), then RMM_CORS_ORIGINS" })
  allowed_origins: string[];
}

export class SessionOperatorDto {
  @ApiProperty() id: number;
  @ApiProperty() email: string;
  @ApiProperty({ enum: OPERATOR_ROLES }) role: OperatorRole;
  @ApiProperty({ type: [Number], nullable: true, description: 'The clients this operator may see; null = every client' }) clients: number[] | null;
  @ApiProperty({ enum: API_KEY_SCOPES, isArray: true, description: "The role's scopes (admin = every scope)" }) scopes: ApiKeyScope[];
}

export class SessionDto {
  @ApiProperty({ type: SessionOperatorDto }) operator: SessionOperatorDto;
}

/** GET /api/v3/auth/me: the operator, and what their account has (the step-up dialog offers these methods). */
export class MeDto extends SessionDto {
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When this session last proved who the operator is (sign-in or re-authentication): step-up counts from here' })
  authenticated_at: string | null;
  @ApiProperty({ description: 'The operator has a password (re-authenticate with it)' }) has_password: boolean;
  @ApiProperty({ description: 'TOTP is set up (the password needs its code)' }) totp: boolean;
  @ApiProperty({ description: 'How many passkeys the operator has registered' }) passkeys: number;
  @ApiProperty({ description: 'The account is linked to the OpenID provider (re-authenticate there)' }) sso: boolean;
}

export class ReauthDto {
  @ApiProperty({ maxLength: 1024, description: "The signed-in operator's password" })
  @IsString()
  @MaxLength(1024)
  password: string;

  @ApiPropertyOptional({ example: '123456', description: 'The TOTP code (or a recovery code) when the operator has TOTP set up', maxLength: 32 })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(32)
  totp?: string;
}

/** One console session of an operator (GET /api/v3/auth/sessions/): never its token. */
export class OperatorSessionDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time', description: 'Last request (written at most once a minute)' }) last_seen_at: string;
  @ApiProperty({ format: 'date-time', description: 'The absolute end' }) expires_at: string;
  @ApiProperty({ format: 'date-time', description: 'Sign-in or last re-authentication (step-up)' }) authenticated_at: string;
  @ApiProperty({ type: String, nullable: true, description: 'The address it was signed in from' }) address: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The browser (User-Agent) it was signed in from' }) user_agent: string | null;
  @ApiProperty({ example: 'password+totp', description: 'How: password, password+totp, password+recovery_code, password+passkey, passkey, oidc (of the last re-authentication)' })
  method: string;
  @ApiProperty({ description: 'The session this request came with' }) current: boolean;
}

export class SessionsEndedDto {
  @ApiProperty({ description: 'How many sessions were ended' }) ended: number;
}

export function toOperatorSessionDto(s: SessionRow, currentId: string | null): OperatorSessionDto {
  return {
    id: s.id,
    created_at: s.createdAt.toISOString(),
    last_seen_at: s.lastSeenAt.toISOString(),
    expires_at: s.expiresAt.toISOString(),
    authenticated_at: s.authenticatedAt.toISOString(),
    address: s.address,
    user_agent: s.userAgent,
    method: s.method,
    current: s.id === currentId,
  };
}

export function toMeDto(a: AccountFacts): MeDto {
  return { ...toSessionDto(a.operator), authenticated_at: a.authenticatedAt?.toISOString() ?? null, has_password: a.hasPassword, totp: a.totp, passkeys: a.passkeys, sso: a.sso };
}

export class OidcMethodDto {
  @ApiProperty({ example: 'Entra ID', description: 'RMM_OIDC_BUTTON: the page shows "Sign in with <button>"' }) button: string;
}

/** GET /api/v3/auth/methods (public): what the sign-in page offers. */
export class SignInMethodsDto {
  @ApiProperty({ description: 'RMM_PASSWORD_LOGIN: false = only break-glass operators sign in with a password' }) password: boolean;
  @ApiProperty({ type: OidcMethodDto, nullable: true, description: 'The OpenID provider, when RMM_OIDC_ISSUER is set' }) oidc: OidcMethodDto | null;
  @ApiProperty({ description: 'Passkeys are always offered (an operator without one is told so)' }) passkeys: boolean;
  @ApiProperty({ description: 'RMM_STEP_UP_MINUTES: dangerous actions need an authentication this recent' }) step_up_minutes: number;
}

/** GET /api/v3/auth/session: whether the request's cookie is a live session, asked without a 401 when it is not. */
export class SessionStateDto {
  @ApiProperty({ description: 'Whether the rmm_session cookie names a live session' }) signed_in: boolean;
  @ApiProperty({ type: SessionOperatorDto, nullable: true, description: 'The signed-in operator (as GET /api/v3/auth/me); null when not signed in' })
  operator: SessionOperatorDto | null;
}

export class OperatorDto {
  @ApiProperty() id: number;
  @ApiProperty() email: string;
  @ApiProperty({ enum: OPERATOR_ROLES }) role: OperatorRole;
  @ApiProperty({ type: [Number], nullable: true, description: 'null = every client' }) clients: number[] | null;
  @ApiProperty() disabled: boolean;
  @ApiProperty({ description: 'TOTP is set up' }) totp: boolean;
  @ApiProperty({ description: 'May sign in with a password even when RMM_PASSWORD_LOGIN=false (operator create … --break-glass; docs/sso.md)' }) break_glass: boolean;
  @ApiProperty({ description: 'Linked to an account at the OpenID provider (signs in with single sign-on; role and clients follow its groups)' }) sso: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class CreateOperatorDto {
  @ApiProperty({ example: 'tech@msp.example', maxLength: 254 })
  @IsString()
  @MaxLength(254)
  email: string;

  @ApiProperty({ minLength: 8, maxLength: 1024 })
  @IsString()
  @MaxLength(1024)
  password: string;

  @ApiProperty({ enum: OPERATOR_ROLES })
  @IsIn(OPERATOR_ROLES as unknown as string[])
  role: OperatorRole;

  @ApiPropertyOptional({ type: [Number], nullable: true, description: 'Only these clients; left out or null: every client' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsInt({ each: true })
  @Min(1, { each: true })
  clients?: number[] | null;
}

export class UpdateOperatorDto {
  @ApiPropertyOptional({ enum: OPERATOR_ROLES })
  @IsOptionalNotNull()
  @IsIn(OPERATOR_ROLES as unknown as string[])
  role?: OperatorRole;

  @ApiPropertyOptional({ type: [Number], nullable: true, description: 'null: every client' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsInt({ each: true })
  @Min(1, { each: true })
  clients?: number[] | null;

  @ApiPropertyOptional({ description: 'true ends every session of the operator at once' })
  @IsOptionalNotNull()
  @IsBoolean()
  disabled?: boolean;

  @ApiPropertyOptional({ minLength: 8, maxLength: 1024, description: 'A new password ends every session of the operator at once' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(1024)
  password?: string;
}

export class TotpSetupDto {
  @ApiProperty({ description: 'Scan into an authenticator app; shown once' }) otpauth_uri: string;
  @ApiProperty({ type: [String], description: 'Ten one-time codes for when the phone is lost; shown once' }) recovery_codes: string[];
}

export function toSessionStateDto(o: Pick<OperatorEntity, 'id' | 'email' | 'role' | 'clients'> | null): SessionStateDto {
  return o ? { signed_in: true, operator: toSessionDto(o).operator } : { signed_in: false, operator: null };
}

export function toSessionDto(o: Pick<OperatorEntity, 'id' | 'email' | 'role' | 'clients'>): SessionDto {
  return { operator: { id: o.id, email: o.email, role: o.role, clients: o.clients, scopes: [...ROLE_SCOPES[o.role]] } };
}

export function toOperatorDto(o: OperatorEntity): OperatorDto {
  return { id: o.id, email: o.email, role: o.role, clients: o.clients, disabled: o.disabled, totp: o.totpSecret !== null, break_glass: o.breakGlass, sso: o.oidcSubject !== null, created_at: o.createdAt.toISOString() };
}
