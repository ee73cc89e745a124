import { Client } from 'pg';

/** One query on a test database, on its own connection (as a superuser: RLS does not apply). */
export async function sql<T = Record<string, unknown>>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const pg = new Client({ connectionString: url });
  await pg.connect();
  try {
    return (await pg.query(text, params)).rows as T[];
  } finally {
    await pg.end();
  }
}
