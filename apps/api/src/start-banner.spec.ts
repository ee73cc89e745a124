import { FIRST_ADMIN_COMMAND, startBanner, startLogFields } from './start-banner';

describe('what npm start prints (the banner at a terminal, the log line everywhere)', () => {
  const facts = { url: 'http://localhost:3000', database: 'embedded PostgreSQL, data in /srv/rmm/.data', hasAdmin: false };

  it('names the console (/app/) and, while no admin exists, the command that makes the first (issue 29)', () => {
    const banner = startBanner(facts);
    expect(banner).toContain('  Console    http://localhost:3000/app/\n');
    expect(banner).toContain(`  Sign in    no admin yet: npm run cli -- operator create --email admin@example.com --role admin\n`);
    expect(banner).toContain('  API docs   http://localhost:3000/docs\n');
    expect(startLogFields(facts)).toEqual({
      url: 'http://localhost:3000',
      console: 'http://localhost:3000/app/',
      docs: 'http://localhost:3000/docs',
      firstAdmin: FIRST_ADMIN_COMMAND,
    });
  });

  it('leaves the first-admin hint out once an admin exists', () => {
    expect(startBanner({ ...facts, hasAdmin: true })).not.toContain('operator create');
    expect(startBanner({ ...facts, hasAdmin: true })).toContain('Console    http://localhost:3000/app/');
    expect(startLogFields({ ...facts, hasAdmin: true })).not.toHaveProperty('firstAdmin');
  });
});
