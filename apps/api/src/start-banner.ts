/** The command the README gives for the first console operator (an admin: the others are made in the console). */
export const FIRST_ADMIN_COMMAND = 'npm run cli -- operator create --email admin@example.com --role admin';

/** What `npm start` tells about where to go next: the same facts in the log line and, at a terminal, the banner. */
export interface StartFacts {
  url: string;
  database: string;
  /** Whether an enabled admin operator exists: without one, nobody can sign in to the console to make one. */
  hasAdmin: boolean;
}

/** The fields of the "listening" log line that point somewhere (the console, the docs, the first admin). */
export function startLogFields(f: StartFacts): Record<string, string> {
  return { url: f.url, console: `${f.url}/app/`, docs: `${f.url}/docs`, ...(f.hasAdmin ? {} : { firstAdmin: FIRST_ADMIN_COMMAND }) };
}

/** For a person at a terminal: where to go next. */
export function startBanner(f: StartFacts): string {
  return [
    '',
    '  RMM server is ready',
    `  URL        ${f.url}`,
    `  Console    ${f.url}/app/`,
    ...(f.hasAdmin ? [] : [`  Sign in    no admin yet: ${FIRST_ADMIN_COMMAND}`, '             (asks for the password; more operators are made in the console, under Operators)']),
    `  API docs   ${f.url}/docs`,
    `  Database   ${f.database}`,
    "  Keys       npm run cli -- keys show   (the data platform's and the enrollment function's)",
    '  API key    npm run -s cli -- apikey create --name ops --scopes admin   (for /api/v3 and npm run watch)',
    '  Stop       Ctrl-C',
    '',
    '',
  ].join('\n');
}
