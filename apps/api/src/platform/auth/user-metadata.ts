/** How deep user_metadata may nest (the object itself is level 1): profile data, not documents. */
export const MAX_METADATA_DEPTH = 8;
/** The largest user_metadata, as JSON (UTF-8 bytes). It is copied into every access token. */
export const MAX_METADATA_BYTES = 16 * 1024;

/**
 * Why `value` (parsed JSON) cannot be stored as user_metadata, or null when it can. The depth is measured
 * without recursion and stops at the first container past the limit, so a very deep value costs little and
 * cannot overflow the stack; the size is measured only once the depth is known to be small.
 */
export function metadataProblem(value: unknown, maxDepth = MAX_METADATA_DEPTH, maxBytes = MAX_METADATA_BYTES): string | null {
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 1 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > maxDepth) return `user_metadata must not nest deeper than ${maxDepth} levels`;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push({ v: child, depth: depth + 1 });
    }
  }
  if (Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8') > maxBytes) return `user_metadata must not be larger than ${maxBytes} bytes as JSON`;
  return null;
}
