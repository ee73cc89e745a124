import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';

/** The project folder: the nearest one up from here with a package.json (the same from apps/ under ts-jest and from dist/). */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return process.cwd();
  }
}

/** dist/console/, built by `npm run build` (scripts/build-console.js; `npm start` builds it when stale). */
export const CONSOLE_DIR = join(projectRoot(__dirname), 'dist', 'console');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** A built asset's name: one path segment, as Vite writes them (name-hash.ext); anything else is not one. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

export interface ConsoleFile {
  body: Buffer;
  contentType: string;
}

/**
 * The console's built files, read from disk per request (a rebuild while the server runs is served at once;
 * the files are few and small). Only index.html and the flat assets/ folder are ever read.
 */
export class ConsoleFiles {
  constructor(readonly dir: string = CONSOLE_DIR) {}

  /** index.html, or null when the console is not built. */
  async index(): Promise<Buffer | null> {
    return readFile(join(this.dir, 'index.html')).catch(() => null);
  }

  /** assets/<name>, or null for a name that is not a built asset. */
  async asset(name: string): Promise<ConsoleFile | null> {
    const type = TYPES[extname(name)];
    if (!ASSET_NAME.test(name) || !type) return null;
    const body = await readFile(join(this.dir, 'assets', name)).catch(() => null);
    return body ? { body, contentType: type } : null;
  }
}
