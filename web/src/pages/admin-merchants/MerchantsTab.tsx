import { Button, Intent, Tooltip } from '@blueprintjs/core';
import { PAGE_SIZES } from '@mrn/contracts/domain/notes';
import { routes } from '@mrn/contracts/routes/index';
import type { MerchantView } from '@mrn/contracts/routes/merchants';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useApiQuery } from '../../api/hooks.ts';
import { AddedBy } from '../../merchants/AddedBy.tsx';
import { DeleteMerchantDialog } from '../../merchants/DeleteMerchantDialog.tsx';
import { DateCell, EinCell, LatestCategoryCell } from '../../merchants/table-cells.tsx';
import { merchantPath } from '../../routing/paths.ts';
import { ListState } from '../../ui/ListState.tsx';
import { PagedListToolbar } from '../../ui/PagedListToolbar.tsx';
import { TableCard } from '../../ui/TableCard.tsx';
import { useListParams } from '../../ui/use-list-params.ts';

const COLUMNS = ['Name', 'EIN/BN', 'Added By', 'Added', 'Latest Note Category', 'Delete'];

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
      <PagedListToolbar
        list={list}
        pageSizes={PAGE_SIZES}
        query={merchants}
        searchPlaceholder="Search by EIN/BN or name"
      />
      <ListState
        isPending={merchants.isPending}
        error={merchants.error}
        isEmpty={rows.length === 0}
        emptyIcon="shop"
        emptyTitle={list.search ? 'No merchants match this search' : 'No merchants yet'}
      />
      {rows.length > 0 && (
        <TableCard caption="Merchants" columns={COLUMNS}>
          {rows.map((m) => (
            <tr key={m.resource_id}>
              <td className="mrn-cell-title" data-label="Name">
                <Link to={merchantPath(m.resource_id)}>{m.legal_name}</Link>
                {m.dba && <div className="mrn-secondary mrn-small">DBA {m.dba}</div>}
              </td>
              <EinCell fein={m.fein} />
              <td data-label="Added By">
                <AddedBy funder={m.added_by} user={m.added_by_user} />
              </td>
              <DateCell label="Added" value={m.created_at} />
              <LatestCategoryCell category={m.last_note_category} />
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
        </TableCard>
      )}
      <DeleteMerchantDialog merchant={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}
