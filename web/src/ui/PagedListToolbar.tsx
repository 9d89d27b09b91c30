import type { Pagination } from '@mrn/contracts';
import { ListSearchBox } from './ListSearchBox.tsx';
import { Pager } from './Pager.tsx';
import type { ListParams } from './use-list-params.ts';

interface PagedListToolbarProps {
  list: ListParams;
  pageSizes: readonly number[];
  /** The list's query: the pager appears once a page has arrived and dims while the next one loads. */
  query: { data?: { pagination: Pagination }; isPlaceholderData: boolean };
  /** Shows the search box, labelled with this text; without it the pager sits alone at the end. */
  searchPlaceholder?: string;
}

/** The row above a paged list: its search box, if it has one, and its pager, both kept in the URL. */
export function PagedListToolbar({ list, pageSizes, query, searchPlaceholder }: PagedListToolbarProps) {
  return (
    <div className={searchPlaceholder ? 'mrn-list-toolbar' : 'mrn-list-toolbar mrn-list-toolbar-end'}>
      {searchPlaceholder && (
        // Keyed by the applied term: when the URL's search changes from elsewhere, the box starts again from it.
        <ListSearchBox
          key={list.search}
          value={list.search}
          onSearch={list.setSearch}
          placeholder={searchPlaceholder}
        />
      )}
      {query.data && (
        <Pager
          pagination={query.data.pagination}
          onPageChange={list.setPage}
          pageSizes={pageSizes}
          onPageSizeChange={list.setPerPage}
          loading={query.isPlaceholderData}
        />
      )}
    </div>
  );
}
