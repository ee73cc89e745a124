/**
 * One HTTP byte range (RFC 9110 §14.1.2) of a `Range` header: `bytes=a-b`, `bytes=a-`, `bytes=-n`. Several ranges,
 * another unit or a malformed header are ignored (the whole file, 200), as the RFC allows; only a well-formed range
 * that no byte of the file satisfies is 416.
 */
export type ByteRangeSpec = { kind: 'from'; first: number; last?: number } | { kind: 'suffix'; length: number };

const SINGLE = /^bytes=(\d{0,16})-(\d{0,16})$/;

/** The header's one range, or null for none (absent, several, malformed: the whole file). */
export function parseRange(header: string | undefined): ByteRangeSpec | null {
  if (header === undefined) return null;
  const m = SINGLE.exec(header.trim().replace(/\s+/g, ''));
  if (!m) return null;
  const [, a, b] = m;
  if (a === '' && b === '') return null;
  if (a === '') return { kind: 'suffix', length: Number(b) };
  const first = Number(a);
  if (b === '') return { kind: 'from', first };
  const last = Number(b);
  if (last < first) return null; // (invalid: ignored, not unsatisfiable)
  return { kind: 'from', first, last };
}

/** The bytes [start, end] (inclusive) of a file of `size` that the range asks for; null when none (416). */
export function resolveRange(spec: ByteRangeSpec, size: number): { start: number; end: number } | null {
  if (spec.kind === 'suffix') {
    if (spec.length === 0 || size === 0) return null;
    return { start: Math.max(0, size - spec.length), end: size - 1 };
  }
  if (spec.first >= size) return null;
  return { start: spec.first, end: Math.min(size - 1, spec.last ?? size - 1) };
}

/**
 * What to ask the agent for before the file's size is known: the range's offset and length when it names them
 * (`a-b`, `a-`); a suffix (`-n`) needs the size first, so nothing (length 0), then a second read.
 */
export function agentReadOf(spec: ByteRangeSpec | null): { offset: number; length?: number } {
  if (spec === null) return { offset: 0 };
  if (spec.kind === 'suffix') return { offset: 0, length: 0 };
  return spec.last === undefined ? { offset: spec.first } : { offset: spec.first, length: spec.last - spec.first + 1 };
}

/** `attachment; filename="…"` with the name made safe for the quoted form, and its UTF-8 original (RFC 6266, RFC 8187). */
export function attachmentOf(path: string): string {
  const name = path.split(/[\\/]/).filter(Boolean).pop() ?? 'download';
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
