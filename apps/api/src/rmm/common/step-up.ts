import { DomainError } from '../../common/errors/domain-error';
import { GuardErrorCode } from './guard.errors';
import type { Principal } from './principal';

/**
 * Step-up (docs/sso.md): an operator whose session last authenticated more than `minutes` ago may not do a dangerous
 * action until they re-authenticate (password and its second factor, a passkey, or the provider with max_age).
 * API keys pass (their scopes decide).
 */
export function requireStepUp(principal: Pick<Principal, 'kind' | 'authenticatedAt'>, now: Date, minutes: number): void {
  if (principal.kind !== 'operator') return;
  const at = principal.authenticatedAt?.getTime() ?? 0;
  if (now.getTime() - at <= minutes * 60_000) return;
  throw new DomainError(GuardErrorCode.StepUpRequired, 're-authentication required');
}
