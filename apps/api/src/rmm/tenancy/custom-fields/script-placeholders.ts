import type { CustomFieldScope } from '@app/entities';

/**
 * `{{agent.hostname}}`, `{{agent.<field>}}`, `{{site.name}}`, `{{site.<field>}}`, `{{client.name}}`,
 * `{{client.<field>}}` in a script's arguments (docs/custom-fields.md, "In scripts"). Spaces inside the braces are
 * allowed; any other `{{…}}` is left as it is.
 */
const PLACEHOLDER = /\{\{\s*(agent|site|client)\.([a-z][a-z0-9_]{0,63})\s*\}\}/g;

/** The properties every agent, site and client has besides its fields (they win over a field of the same name). */
export const BUILT_IN: Record<CustomFieldScope, readonly string[]> = { agent: ['hostname'], site: ['name'], client: ['name'] };

export interface Placeholder {
  scope: CustomFieldScope;
  name: string;
}

/** The placeholders the arguments name, each once, in the order first met. */
export function placeholdersOf(args: readonly string[]): Placeholder[] {
  const seen = new Map<string, Placeholder>();
  for (const arg of args) {
    for (const m of arg.matchAll(PLACEHOLDER)) {
      const key = `${m[1]}.${m[2]}`;
      if (!seen.has(key)) seen.set(key, { scope: m[1] as CustomFieldScope, name: m[2] });
    }
  }
  return [...seen.values()];
}

/** The arguments with each placeholder replaced by its text (`values` by `scope.name`; every placeholder must have one). */
export function fillPlaceholders(args: readonly string[], values: ReadonlyMap<string, string>): string[] {
  return args.map((arg) => arg.replace(PLACEHOLDER, (_m, scope: string, name: string) => values.get(`${scope}.${name}`) ?? ''));
}
