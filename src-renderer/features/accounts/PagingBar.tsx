import { PAGE_SIZES, isPageSize, type PageSize } from '../../routing/route';

interface PagingBarProps {
  rangeText: string;
  pageSize: PageSize;
  canGoBack: boolean;
  canGoForward: boolean;
  onPrevious: () => void;
  onNext: () => void;
  onPageSize: (size: PageSize) => void;
}

/** Skip-based paging: the service says `hasMore`, not a total, so there are no page numbers. */
export function PagingBar(props: PagingBarProps) {
  return (
    <div className="pager" role="group" aria-label="Paging">
      <span className="pager__range" aria-live="polite">
        {props.rangeText}
      </span>
      <label className="pager__size">
        Rows per page
        <select
          className="select"
          value={props.pageSize}
          onChange={(event) => {
            const size = Number(event.target.value);
            if (isPageSize(size)) props.onPageSize(size);
          }}
          data-testid="grid-page-size"
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </label>
      <div className="pager__buttons">
        <button
          type="button"
          className="button button--secondary"
          onClick={props.onPrevious}
          disabled={!props.canGoBack}
          data-testid="grid-prev"
        >
          ‹ Previous
        </button>
        <button
          type="button"
          className="button button--secondary"
          onClick={props.onNext}
          disabled={!props.canGoForward}
          data-testid="grid-next"
        >
          Next ›
        </button>
      </div>
    </div>
  );
}
