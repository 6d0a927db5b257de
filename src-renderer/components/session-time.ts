import { formatUtc } from './utc-time';

/**
 * An instant as `formatUtc` prints it, cut between the date and the time of day
 * (`2026-11-23` · `18:49 UTC`), so a narrow cell breaks it there and never inside the date; null for
 * an unreadable instant.
 */
export function utcParts(iso: string): { date: string; time: string } | null {
  const text = formatUtc(iso);
  const cut = text.indexOf(' ');
  if (cut < 0) return null;
  return { date: text.slice(0, cut), time: text.slice(cut + 1) };
}
