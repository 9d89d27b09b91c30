import { Button, Classes, Dialog, DialogBody, DialogFooter, H2, Tag } from '@blueprintjs/core';
import { PAGE_SIZES } from '@mrn/contracts/domain/notes';
import type { RouteResponse } from '@mrn/contracts/http/route';
import { routes } from '@mrn/contracts/routes/index';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useApiQuery } from '../../api/hooks.ts';
import { cityState, displayEin, formatDateTime } from '../../merchants/format.ts';
import { DateCell, EinCell } from '../../merchants/table-cells.tsx';
import { merchantPath } from '../../routing/paths.ts';
import { ListState } from '../../ui/ListState.tsx';
import { PagedListToolbar } from '../../ui/PagedListToolbar.tsx';
import { TableCard } from '../../ui/TableCard.tsx';
import { useDocumentTitle } from '../../ui/use-document-title.ts';
import { useListParams } from '../../ui/use-list-params.ts';

const COLUMNS = ['Received', 'Merchant', 'EIN/BN', 'Location', 'Submitted By', 'Reason'];

type Dispute = RouteResponse<typeof routes.listDisputes>['data'][number];

function MerchantCell({ d }: { d: Dispute }) {
  return (
    <>
      {d.merchant_id ? <Link to={merchantPath(d.merchant_id)}>{d.legal_name}</Link> : d.legal_name}
      {d.dba && <div className="mrn-secondary mrn-small">DBA {d.dba}</div>}
      {!d.merchant_id && (
        <div>
          <Tag minimal className="mrn-inline-tag-start">
            Not in the network
          </Tag>
        </div>
      )}
    </>
  );
}

/** /disputes: business owners' disputes, newest first, for platform administrators. */
export function DisputesPage() {
  useDocumentTitle('Disputes');
  const list = useListParams(PAGE_SIZES, PAGE_SIZES[0]);
  const [open, setOpen] = useState<Dispute | null>(null);
  const disputes = useApiQuery(
    routes.listDisputes,
    { query: { page: list.page, per_page: list.perPage } },
    { placeholderData: keepPreviousData, meta: { errorToast: true } },
  );
  const rows = disputes.data?.data ?? [];

  return (
    <div className="mrn-page">
      <header className="mrn-page-header">
        <H2>Disputes</H2>
        <p className={Classes.TEXT_MUTED}>
          Records disputed by business owners through the public dispute form. Reply by e-mail and correct or
          remove the record on the merchant's page.
        </p>
      </header>
      {disputes.data && <PagedListToolbar list={list} pageSizes={PAGE_SIZES} query={disputes} />}
      <ListState
        isPending={disputes.isPending}
        error={disputes.error}
        isEmpty={rows.length === 0}
        emptyIcon="take-action"
        emptyTitle="No disputes"
        emptyDescription="Disputes submitted on the public dispute form appear here."
      />
      {rows.length > 0 && (
        <TableCard caption="Disputes" columns={COLUMNS}>
          {rows.map((d) => (
            <tr key={d.resource_id}>
              <DateCell label="Received" value={d.created_at} />
              <td className="mrn-cell-title" data-label="Merchant">
                <MerchantCell d={d} />
              </td>
              <EinCell fein={d.fein} />
              <td data-label="Location">{cityState(d)}</td>
              <td data-label="Submitted By" className="mrn-break">
                {d.first_name} {d.last_name}
                <div className="mrn-small">
                  <a href={`mailto:${d.email}`}>{d.email}</a>
                </div>
              </td>
              <td data-label="Reason">
                <span className="mrn-clamp">{d.reason}</span>
                <button type="button" className="mrn-link-button mrn-small" onClick={() => setOpen(d)}>
                  Read the whole dispute
                </button>
              </td>
            </tr>
          ))}
        </TableCard>
      )}
      <Dialog
        isOpen={open !== null}
        onClose={() => setOpen(null)}
        title={open ? `Dispute: ${open.legal_name}` : 'Dispute'}
        icon="take-action"
        className="mrn-dialog-wide"
      >
        {open && (
          <>
            <DialogBody>
              <dl className="mrn-facts">
                <div className="mrn-fact">
                  <dt>Received</dt>
                  <dd>{formatDateTime(open.created_at)}</dd>
                </div>
                <div className="mrn-fact">
                  <dt>EIN/BN</dt>
                  <dd>{displayEin(open.fein)}</dd>
                </div>
                <div className="mrn-fact">
                  <dt>Location</dt>
                  <dd>{cityState(open)}</dd>
                </div>
                <div className="mrn-fact">
                  <dt>Submitted by</dt>
                  <dd>
                    {open.first_name} {open.last_name} · <a href={`mailto:${open.email}`}>{open.email}</a>
                  </dd>
                </div>
              </dl>
              <h4 className="mrn-dialog-subtitle">Reason for Dispute</h4>
              <p className="mrn-preserve-lines">{open.reason}</p>
            </DialogBody>
            <DialogFooter
              actions={
                <>
                  {open.merchant_id && (
                    <Link className="bp6-button" to={merchantPath(open.merchant_id)}>
                      Open merchant
                    </Link>
                  )}
                  <Button text="Close" onClick={() => setOpen(null)} />
                </>
              }
            />
          </>
        )}
      </Dialog>
    </div>
  );
}
