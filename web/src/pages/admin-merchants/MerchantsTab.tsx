import { Button, Card, HTMLTable, Intent, Tag, Tooltip } from '@blueprintjs/core';
import { PAGE_SIZES } from '@mrn/contracts/domain/notes';
import { routes } from '@mrn/contracts/routes/index';
import type { MerchantView } from '@mrn/contracts/routes/merchants';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useApiQuery } from '../../api/hooks.ts';
import { AddedBy } from '../../merchants/AddedBy.tsx';
import { categoryIntent } from '../../merchants/category-intent.ts';
import { DeleteMerchantDialog } from '../../merchants/DeleteMerchantDialog.tsx';
import { displayEin, formatDate } from '../../merchants/format.ts';
import { merchantPath } from '../../routing/paths.ts';
import { ListSearchBox } from '../../ui/ListSearchBox.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { useListParams } from '../../ui/use-list-params.ts';
import { ListState } from './ListState.tsx';

/** Every live merchant, 25/50/100 a page, with Delete (core spec §2). */
export function MerchantsTab() {
  const list = useListParams(PAGE_SIZES, PAGE_SIZES[0]);
  const [deleting, setDeleting] = useState<MerchantView | null>(null);
  const merchants = useApiQuery(
    routes.listMerchants,
    { query: { page: list.page, per_page: list.perPage, search: list.search || undefined } },
    { placeholderData: keepPreviousData, meta: { errorToast: true } },
  );
  const rows = merchants.data?.data ?? [];

  return (
    <div className="mrn-tab-panel">
      <div className="mrn-list-toolbar">
        <ListSearchBox
          key={list.search}
          value={list.search}
          onSearch={list.setSearch}
          placeholder="Search by EIN/BN or name"
        />
        {merchants.data && (
          <Pager
            pagination={merchants.data.pagination}
            onPageChange={list.setPage}
            pageSizes={PAGE_SIZES}
            onPageSizeChange={list.setPerPage}
            loading={merchants.isPlaceholderData}
          />
        )}
      </div>
      <ListState
        isPending={merchants.isPending}
        error={merchants.error}
        isEmpty={rows.length === 0}
        emptyIcon="shop"
        emptyTitle={list.search ? 'No merchants match this search' : 'No merchants yet'}
      />
      {rows.length > 0 && (
        <Card className="mrn-table-card" elevation={1}>
          <div className="mrn-table-scroll">
            <HTMLTable className="mrn-table mrn-table-stack" striped>
              <caption className="mrn-visually-hidden">Merchants</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">EIN/BN</th>
                  <th scope="col">Added By</th>
                  <th scope="col">Added</th>
                  <th scope="col">Latest Note Category</th>
                  <th scope="col">Delete</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((m) => (
                  <tr key={m.resource_id}>
                    <td className="mrn-cell-title" data-label="Name">
                      <Link to={merchantPath(m.resource_id)}>{m.legal_name}</Link>
                      {m.dba && <div className="mrn-secondary mrn-small">DBA {m.dba}</div>}
                    </td>
                    <td data-label="EIN/BN" className="mrn-nowrap">
                      {displayEin(m.fein)}
                    </td>
                    <td data-label="Added By">
                      <AddedBy funder={m.added_by} user={m.added_by_user} />
                    </td>
                    <td data-label="Added" className="mrn-nowrap">
                      {formatDate(m.created_at)}
                    </td>
                    <td data-label="Latest Note Category">
                      {m.last_note_category ? (
                        <Tag intent={categoryIntent(m.last_note_category)} minimal>
                          {m.last_note_category}
                        </Tag>
                      ) : (
                        '—'
                      )}
                    </td>
                    <td data-label="Delete">
                      <Tooltip content="Delete merchant" placement="left">
                        <Button
                          variant="minimal"
                          intent={Intent.DANGER}
                          icon="trash"
                          aria-label={`Delete ${m.legal_name}`}
                          onClick={() => setDeleting(m)}
                        />
                      </Tooltip>
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
        </Card>
      )}
      <DeleteMerchantDialog merchant={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}
