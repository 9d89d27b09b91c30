import { Card, HTMLTable, Tag } from '@blueprintjs/core';
import { PAGE_SIZES, REPORTED_PAGE_SIZES } from '@mrn/contracts/domain/notes';
import { routes } from '@mrn/contracts/routes/index';
import { keepPreviousData } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { useApiQuery } from '../../api/hooks.ts';
import { categoryIntent } from '../../merchants/category-intent.ts';
import { displayEin, formatDate } from '../../merchants/format.ts';
import { merchantPath } from '../../routing/paths.ts';
import { Pager } from '../../ui/Pager.tsx';
import { useListParams } from '../../ui/use-list-params.ts';
import { ListState } from './ListState.tsx';

/**
 * Notes whose authoring funder asked for deletion, 10/25/50/100 a page (core spec §2). Each row opens
 * the merchant with the note highlighted, where the administrator can archive it.
 */
export function ReportedNotesTab() {
  const navigate = useNavigate();
  const list = useListParams(REPORTED_PAGE_SIZES, PAGE_SIZES[0]);
  const reported = useApiQuery(
    routes.listReportedNotes,
    { query: { page: list.page, per_page: list.perPage } },
    { placeholderData: keepPreviousData, meta: { errorToast: true } },
  );
  const rows = reported.data?.data ?? [];

  return (
    <div className="mrn-tab-panel">
      <div className="mrn-list-toolbar mrn-list-toolbar-end">
        {reported.data && (
          <Pager
            pagination={reported.data.pagination}
            onPageChange={list.setPage}
            pageSizes={REPORTED_PAGE_SIZES}
            onPageSizeChange={list.setPerPage}
            loading={reported.isPlaceholderData}
          />
        )}
      </div>
      <ListState
        isPending={reported.isPending}
        error={reported.error}
        isEmpty={rows.length === 0}
        emptyIcon="tick-circle"
        emptyTitle="No reported notes"
        emptyDescription="Deletion requests from funders appear here."
      />
      {rows.length > 0 && (
        <Card className="mrn-table-card" elevation={1}>
          <div className="mrn-table-scroll">
            <HTMLTable className="mrn-table mrn-table-stack" striped interactive>
              <caption className="mrn-visually-hidden">Reported notes</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">EIN/BN</th>
                  <th scope="col">Reported</th>
                  <th scope="col">Category</th>
                  <th scope="col">Note</th>
                  <th scope="col">Reported By</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((n) => {
                  const to = merchantPath(n.merchant.resource_id, n.id);
                  return (
                    <tr key={n.id} onClick={() => navigate(to)}>
                      <td className="mrn-cell-title" data-label="Name">
                        <Link to={to} onClick={(e) => e.stopPropagation()}>
                          {n.merchant.legal_name}
                        </Link>
                      </td>
                      <td data-label="EIN/BN" className="mrn-nowrap">
                        {displayEin(n.merchant.fein)}
                      </td>
                      <td data-label="Reported" className="mrn-nowrap">
                        {formatDate(n.reported_at)}
                      </td>
                      <td data-label="Category">
                        <Tag intent={categoryIntent(n.category)} minimal>
                          {n.category}
                        </Tag>
                      </td>
                      <td data-label="Note">
                        <span className="mrn-clamp">{n.note}</span>
                        <div className="mrn-secondary mrn-small">Reason: {n.reason}</div>
                      </td>
                      <td data-label="Reported By">{n.reported_by}</td>
                    </tr>
                  );
                })}
              </tbody>
            </HTMLTable>
          </div>
        </Card>
      )}
    </div>
  );
}
