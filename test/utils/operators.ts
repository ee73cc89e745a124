import { OperatorRole } from '@app/entities';
import { OperatorsService } from '../../apps/api/src/rmm/access/operators/operators.service';
import { TestApp } from './test-app';

export const OPERATOR_PASSWORD = 'correct horse battery staple';

/** An operator made through the service (as the CLI and the operators API do); returns its id. */
export async function createOperator(
  t: TestApp,
  email: string,
  role: OperatorRole,
  options: { clients?: number[] | null; password?: string } = {},
): Promise<number> {
  const op = await t.server.app.get(OperatorsService).create({ email, role, password: options.password ?? OPERATOR_PASSWORD, clients: options.clients ?? null });
  return op.id;
}

/** Signs in over HTTP; returns the `rmm_session=…` pair to send as the Cookie header. */
export async function signIn(t: TestApp, email: string, password = OPERATOR_PASSWORD, totp?: string): Promise<string> {
  const res = await t.http.post('/api/v3/auth/login').send({ email, password, ...(totp ? { totp } : {}) });
  if (res.status !== 200) throw new Error(`sign-in of ${email} answered ${res.status} ${JSON.stringify(res.body)}`);
  return sessionPair(res.headers['set-cookie']);
}

/** The `rmm_session=…` pair out of a Set-Cookie answer. */
export function sessionPair(setCookie: string | string[] | undefined): string {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const line = all.find((c) => c.startsWith('rmm_session='));
  if (!line) throw new Error('no rmm_session cookie was set');
  return line.split(';')[0];
}

/** The header every cookie-authenticated change carries. */
export const CONSOLE = { 'X-Requested-With': 'rmm-console' } as const;
