import { formatLocal, formatUtc } from './utc-time';

/** An instant shown in UTC, its local time on hover; the one way the console prints a time. */
export function UtcTime({ iso, seconds, testId }: { iso: string; seconds?: boolean; testId?: string }) {
  const text = formatUtc(iso, { seconds });
  if (text === '') return <span data-testid={testId}>{iso}</span>;
  return (
    <time dateTime={iso} title={formatLocal(iso)} data-testid={testId}>
      {text}
    </time>
  );
}
