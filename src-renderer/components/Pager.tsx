import type { ReactNode } from 'react';

interface PageSizeControl {
  value: number;
  options: readonly number[];
  onChange: (size: number) => void;
  /** "Rows per page" */
  label?: string;
}

interface PagerProps {
  /** "Rows 26–50"; a non-breaking space keeps the bar's height while a page loads. */
  range?: ReactNode;
  /** Prefix of the test ids: `<id>-prev`, `<id>-next`, `<id>-page-size`, `<id>-range`. */
  testId: string;
  canPrevious: boolean;
  canNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  pageSize?: PageSizeControl;
  previousLabel?: string;
  nextLabel?: string;
  /** The group's accessible name ("Paging", "Outbox paging"). */
  label?: string;
  small?: boolean;
}

/**
 * Skip- or keyset-based paging: the service says `hasMore`, not a total, so there are no page
 * numbers — a range, an optional page-size choice, and previous / next.
 */
export function Pager(props: PagerProps) {
  const { testId, pageSize } = props;
  const buttonClass = props.small ? 'button button--secondary button--small' : 'button button--secondary';
  return (
    <div className="pager" role="group" aria-label={props.label ?? 'Paging'}>
      {props.range !== undefined && (
        <span className="pager__range" aria-live="polite" data-testid={`${testId}-range`}>
          {props.range}
        </span>
      )}
      {pageSize && (
        <label className="pager__size">
          {pageSize.label ?? 'Rows per page'}
          <select
            className="select"
            value={pageSize.value}
            data-testid={`${testId}-page-size`}
            onChange={(event) => {
              const size = Number(event.target.value);
              if (pageSize.options.includes(size)) pageSize.onChange(size);
            }}
          >
            {pageSize.options.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="pager__buttons">
        <button
          type="button"
          className={buttonClass}
          onClick={props.onPrevious}
          disabled={!props.canPrevious}
          data-testid={`${testId}-prev`}
        >
          {props.previousLabel ?? '‹ Previous'}
        </button>
        <button
          type="button"
          className={buttonClass}
          onClick={props.onNext}
          disabled={!props.canNext}
          data-testid={`${testId}-next`}
        >
          {props.nextLabel ?? 'Next ›'}
        </button>
      </div>
    </div>
  );
}
