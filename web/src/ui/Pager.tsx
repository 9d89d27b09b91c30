import { Button, ButtonGroup, HTMLSelect } from '@blueprintjs/core';
import type { Pagination } from '@mrn/contracts';
import { useId } from 'react';
import { pageRange } from './pagination.ts';

interface PagerProps {
  pagination: Pagination;
  onPageChange: (page: number) => void;
  /** Page sizes offered; without them the size is fixed. */
  pageSizes?: readonly number[];
  onPageSizeChange?: (size: number) => void;
  /** A newer page is loading: the buttons stay, the range dims. */
  loading?: boolean;
}

const numberFormat = new Intl.NumberFormat('en-US');

/** Rows-per-page choice, "26–50 of 340" and first/previous/next/last page buttons (pages are 1-based). */
export function Pager({ pagination, onPageChange, pageSizes, onPageSizeChange, loading }: PagerProps) {
  const sizeId = useId();
  const { from, to, total } = pageRange(pagination);
  const { current_page: page, total_pages: pages } = pagination;
  return (
    <nav className="mrn-pager" aria-label="Pages">
      {pageSizes && onPageSizeChange && (
        <span className="mrn-pager-size">
          <label htmlFor={sizeId}>Rows per page</label>
          <HTMLSelect
            id={sizeId}
            value={pagination.per_page}
            onChange={(event) => onPageSizeChange(Number(event.target.value))}
            options={pageSizes.map((size) => ({ value: size, label: String(size) }))}
          />
        </span>
      )}
      <span className={loading ? 'mrn-pager-range mrn-loading-text' : 'mrn-pager-range'} aria-live="polite">
        {numberFormat.format(from)}–{numberFormat.format(to)} of {numberFormat.format(total)}
      </span>
      <ButtonGroup variant="outlined">
        <Button
          icon="double-chevron-left"
          aria-label="First page"
          disabled={page <= 1}
          onClick={() => onPageChange(1)}
        />
        <Button
          icon="chevron-left"
          aria-label="Previous page"
          disabled={page <= 1}
          onClick={() => onPageChange(page - 1)}
        />
        <Button
          icon="chevron-right"
          aria-label="Next page"
          disabled={page >= pages}
          onClick={() => onPageChange(page + 1)}
        />
        <Button
          icon="double-chevron-right"
          aria-label="Last page"
          disabled={page >= pages}
          onClick={() => onPageChange(pages)}
        />
      </ButtonGroup>
    </nav>
  );
}
