import { UserEntity } from '@app/entities';
import { AUDIENCE } from './access-tokens';
import { iso } from '../../common/values';

/** A user as GoTrue answers it (supabase-js's User). */
export interface GoTrueUser {
  id: string;
  aud: string;
  role: string;
  email: string;
  email_confirmed_at: string | null;
  phone: string;
  confirmed_at: string | null;
  last_sign_in_at: string | null;
  app_metadata: { provider: string; providers: string[] };
  user_metadata: Record<string, unknown>;
  identities: unknown[];
  created_at: string;
  updated_at: string;
  is_anonymous: boolean;
}


export function toGoTrueUser(u: UserEntity): GoTrueUser {
  return {
    id: u.id,
    aud: AUDIENCE,
    role: 'authenticated',
    email: u.email,
    email_confirmed_at: iso(u.emailConfirmedAt),
    phone: '',
    confirmed_at: iso(u.emailConfirmedAt),
    last_sign_in_at: iso(u.lastSignInAt),
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: u.rawUserMetaData ?? {},
    identities: [],
    created_at: u.createdAt.toISOString(),
    updated_at: u.updatedAt.toISOString(),
    is_anonymous: false,
  };
}
