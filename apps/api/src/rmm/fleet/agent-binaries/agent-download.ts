import { AgentTarget } from '@app/entities';

/** The file name a download of `target` is saved under (Content-Disposition): the binary's own name. */
export function binaryFilename(target: AgentTarget): string {
  return `rmm-agent-${target}${target.startsWith('windows-') ? '.exe' : ''}`;
}

/**
 * Whether an Accept-Encoding header accepts gzip: `gzip` (or `x-gzip`, or `*`) listed with a q above 0. An explicit
 * `gzip;q=0` refuses it even when `*` is listed.
 */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  let star = false;
  for (const part of text.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)).find(Boolean);
    const weight = q ? Number(q[1]) : 1;
    if (name === 'gzip' || name === 'x-gzip') return weight > 0;
    if (name === '*') star = weight > 0;
  }
  return star;
}

/** Whether If-None-Match names this binary: `*`, or a list with `"<sha256>"` (weak `W/"…"` compares equal, as RFC 9110 says for If-None-Match). */
export function etagMatches(header: string | string[] | undefined, sha256: string): boolean {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  if (text.trim() === '*') return true;
  return text.split(',').some((tag) => tag.trim().replace(/^W\//, '') === `"${sha256}"`);
}
