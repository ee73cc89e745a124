import { FieldError } from '../../common/errors/domain-error';

/** At most this many tags on one agent. */
export const MAX_TAGS = 50;
/** A tag's length, in characters. */
export const MAX_TAG_LENGTH = 64;
/** Letters and digits of any script, space, and `_ . : -`; 1 to 64 of them. */
const TAG_PATTERN = /^[\p{L}\p{N} _.:-]{1,64}$/u;
export const TAG_RULE = `1–${MAX_TAG_LENGTH} characters of letters, digits, space and _ . : -`;

/**
 * One tag as stored: trimmed and lowercase; null when it is not a tag (empty, too long, another character). The
 * one rule of tags (issue #31): the agents API and the policies' targets both read it here.
 */
export function normalizeTag(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const tag = raw.trim().toLowerCase();
  return TAG_PATTERN.test(tag) ? tag : null;
}

/**
 * A list of tags as stored (sorted, without duplicates), or the field errors naming each tag that is not one
 * (`field`: the body's field, `tags`, `add`...). `max`: how many may remain after de-duplication.
 */
export function normalizeTags(raw: readonly unknown[], field: string, max = MAX_TAGS): { tags: string[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const tags = new Set<string>();
  for (const item of raw) {
    const tag = normalizeTag(item);
    if (tag === null) errors.push({ field, message: `${JSON.stringify(item)} is not a tag: ${TAG_RULE}` });
    else tags.add(tag);
  }
  if (tags.size > max) errors.push({ field, message: `at most ${max} tags` });
  return { tags: [...tags].sort(), errors };
}
