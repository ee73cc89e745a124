/**
 * A WebSocket gateway's path as the docs write it: literal segments and `{name}` parameters
 * (`/rmm/{agent_id}/`). A parameter is one non-empty segment, taken as it came (not decoded: the gateway
 * validates it); trailing slashes are ignored on both sides, as they are for the agent channel's path.
 */
export type PathMatcher = (path: string) => Record<string, string> | null;

export function pathMatcher(pattern: string): PathMatcher {
  const segments = trimSlashes(pattern).split('/');
  const names: string[] = [];
  const source = segments
    .map((segment) => {
      const param = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(segment);
      if (param) {
        names.push(param[1]);
        return '([^/]+)';
      }
      if (/[{}]/.test(segment)) throw new Error(`WebSocket path ${pattern}: a parameter is a whole segment, {name}`);
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  const re = new RegExp(`^${source}$`);
  return (path) => {
    const m = re.exec(trimSlashes(path));
    if (!m) return null;
    const params: Record<string, string> = {};
    names.forEach((name, i) => (params[name] = m[i + 1]));
    return params;
  };
}

/** The path without its trailing slashes (`/` stays `/`). */
function trimSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--;
  return path.slice(0, end);
}
