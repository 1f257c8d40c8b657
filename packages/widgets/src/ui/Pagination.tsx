export interface PaginationProps {
  page: number;
  pages: number;
  /** Texts, already translated: previous, next, and "Page {page} of {pages}". */
  previousLabel: string;
  nextLabel: string;
  pageLabel: string;
  /** Accessible name of the navigation landmark. */
  label: string;
  onPage: (page: number) => void;
  disabled?: boolean;
}

/** Previous and next buttons with the page number; nothing when there is one page. */
export function Pagination(props: PaginationProps) {
  const { page, pages, onPage, disabled } = props;
  if (pages <= 1) return null;
  return (
    <nav className="pagination" part="pagination" aria-label={props.label}>
      <button
        type="button"
        className="button button--secondary"
        part="button"
        disabled={disabled || page <= 1}
        onClick={() => onPage(page - 1)}
      >
        {props.previousLabel}
      </button>
      <span aria-live="polite">{props.pageLabel}</span>
      <button
        type="button"
        className="button button--secondary"
        part="button"
        disabled={disabled || page >= pages}
        onClick={() => onPage(page + 1)}
      >
        {props.nextLabel}
      </button>
    </nav>
  );
}
