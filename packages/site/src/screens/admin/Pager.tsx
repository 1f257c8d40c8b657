import { useEffect } from 'react';
import { useT } from '../../app/context.js';
import { useQuery } from '../../router/index.js';

/** The page a list shows: the URL's `page` (none for the first), so a reload keeps it. */
export function usePage(): number {
  const [query] = useQuery();
  const page = Number(query.get('page') ?? '1');
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/**
 * Previous, "page N of M" and next under a paged list; shown when there is more than a page. A
 * page past the end (an old link, or the last row of the last page just removed) is replaced by
 * the last page, so the list never says "page 2 of 1" over nothing.
 */
export function Pager({
  total,
  pageSize,
  label,
}: {
  total: number;
  pageSize: number;
  label: string;
}) {
  const t = useT();
  const [, setQuery] = useQuery();
  const page = usePage();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const past = page > pages;
  useEffect(() => {
    if (past) setQuery({ page: pages > 1 ? pages : null }, { replace: true });
  }, [past, pages, setQuery]);
  if (past || (pages <= 1 && page <= 1)) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button
        type="button"
        className="button button--secondary button--small"
        disabled={page <= 1}
        onClick={() => setQuery({ page: page > 2 ? Math.min(page - 1, pages) : null })}
      >
        {t('common.previous')}
      </button>
      <span>{t('common.page_of', { page, pages })}</span>
      <button
        type="button"
        className="button button--secondary button--small"
        disabled={page >= pages}
        onClick={() => setQuery({ page: page + 1 })}
      >
        {t('common.next')}
      </button>
    </nav>
  );
}
