import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The project folder: the nearest one up from `from` with a package.json (the same from apps/ under ts-jest and from dist/). */
export function projectRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return process.cwd();
  }
}
