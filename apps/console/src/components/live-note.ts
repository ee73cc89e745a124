import type { LiveState } from '../api/live';

/** What a page adds after its summary line about its live updates: nothing while they flow. */
export function liveNote(state: LiveState): string {
  if (state === 'open') return '';
  // Refused for good: the layout says why and which setting to change.
  if (state === 'refused') return ' · live updates off (see above)';
  return ' · live updates reconnecting…';
}
