import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const read = (file: string): string => readFileSync(join(__dirname, '../..', file), 'utf8');
const limitsTable = (text: string): string => {
  const start = text.indexOf('| Limit | Value | Past it |');
  const rows = text.slice(start).split('\n');
  return rows.slice(0, rows.findIndex((l) => !l.startsWith('|'))).join('\n');
};

describe('documentation that must agree', () => {
  it("has the same limits table in the README and in docs/security.md", () => {
    const security = limitsTable(read('docs/security.md'));
    expect(security.split('\n').length).toBeGreaterThan(10);
    expect(limitsTable(read('README.md'))).toBe(security);
  });
});
