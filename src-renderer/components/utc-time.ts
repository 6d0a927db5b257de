/**
 * The console shows and takes times in one zone, UTC (issue #18 item 9), so two people reading
 * the same screen in different places see the same instant; the local time is offered on hover.
 */

const pad = (n: number) => String(n).padStart(2, '0');

function valid(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** `2026-11-23 18:49 UTC` (with `:ss` when `seconds`); '' for an unreadable instant. */
export function formatUtc(iso: string, options: { seconds?: boolean } = {}): string {
  const date = valid(iso);
  if (!date) return '';
  const time = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}${options.seconds ? `:${pad(date.getUTCSeconds())}` : ''}`;
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${time} UTC`;
}

/** The same instant in the viewer's zone, for the hover title. */
export function formatLocal(iso: string): string {
  const date = valid(iso);
  if (!date) return '';
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return `${date.toLocaleString()} (${zone}, local time)`;
}

/** An ISO instant as a `datetime-local` input value read as UTC (minutes precision). */
export function toUtcInput(iso: string): string {
  const date = valid(iso);
  if (!date) return '';
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`;
}

/**
 * A `datetime-local` value taken as UTC, as an ISO instant; null when empty, unreadable or an
 * impossible calendar date (`2026-02-31` is refused, not rolled over to March).
 */
export function fromUtcInput(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    return null;
  }
  return date.toISOString();
}
