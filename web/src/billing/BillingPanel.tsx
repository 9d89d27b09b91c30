import { Callout, Card, Classes, H4, Icon, Intent, Spinner, Tag } from '@blueprintjs/core';
import { type AccountView, billingStateOf, type InvoiceView, routes } from '@mrn/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { useApiQuery } from '../api/hooks.ts';
import { formatDate } from '../merchants/format.ts';
import { DataTable } from '../ui/DataTable.tsx';
import { ListState } from '../ui/ListState.tsx';
import { Pager } from '../ui/Pager.tsx';
import { BillingStateCallout } from './BillingState.tsx';
import { cardBrandLabel, formatCardExpiry } from './card.ts';
import { formatCents } from './money.ts';
import { usePaymentMethod } from './queries.ts';
import { UpdatePaymentMethodButton } from './UpdatePaymentMethodButton.tsx';
import './billing.css';

export const INVOICES_PER_PAGE = 10;
const INVOICE_COLUMNS = ['Date', 'Amount', 'Paid?', 'Download PDF'];

/**
 * The Billing tab (accounts spec §2): the invoices, paged, and the card on file with its update. Past
 * due or lapsed, the billing state's callout first (issue 21): what happened, and the open invoice with
 * its Pay link.
 */
export function BillingPanel({ account, view }: { account: AccountView; view: 'admin' | 'own' }) {
  const state = billingStateOf(account);
  return (
    <div className="mrn-tab-panel">
      <BillingStateCallout
        state={state}
        accountId={account.resource_id}
        view={view === 'admin' ? 'funder' : 'account'}
      />
      <PaymentMethodCard account={account} view={view} />
      <InvoicesCard accountId={account.resource_id} />
    </div>
  );
}

function PaymentMethodCard({ account, view }: { account: AccountView; view: 'admin' | 'own' }) {
  const card = usePaymentMethod(account.resource_id);
  return (
    <Card elevation={1} className="mrn-card" aria-labelledby="payment-method-title">
      <H4 id="payment-method-title">Payment Method</H4>
      {card.isPending && <Spinner aria-label="Loading the payment method" />}
      {card.isError && (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          {card.error.message}
        </Callout>
      )}
      {card.isSuccess && (
        <div className="mrn-card-on-file">
          {card.data ? (
            <div className="mrn-card-on-file-details">
              <Icon icon="credit-card" size={28} className={Classes.TEXT_MUTED} />
              <div>
                <p>
                  <strong>{cardBrandLabel(card.data.brand)}</strong> ending in{' '}
                  <strong data-testid="card-last4">{card.data.last4}</strong>
                </p>
                <p className={Classes.TEXT_MUTED}>
                  Expires {formatCardExpiry(card.data.exp_month, card.data.exp_year)}
                </p>
              </div>
            </div>
          ) : (
            <p className={Classes.TEXT_MUTED}>No card on file.</p>
          )}
          {card.data && (
            <UpdatePaymentMethodButton
              accountId={account.resource_id}
              updateType={view === 'admin' ? 'funder' : 'account'}
              intent={billingStateOf(account).updateCard ? Intent.DANGER : Intent.NONE}
            />
          )}
        </div>
      )}
    </Card>
  );
}

function InvoicesCard({ accountId }: { accountId: string }) {
  const [page, setPage] = useState(1);
  const invoices = useApiQuery(
    routes.listInvoices,
    { params: { id: accountId }, query: { page, per_page: INVOICES_PER_PAGE } },
    { placeholderData: keepPreviousData },
  );
  const rows = invoices.data?.data ?? [];
  const pagination = invoices.data?.pagination;

  return (
    <Card elevation={1} className="mrn-card mrn-table-card">
      <H4>Invoices</H4>
      <ListState
        isPending={invoices.isPending}
        error={invoices.isError && !invoices.data ? invoices.error : null}
        isEmpty={rows.length === 0}
        emptyIcon="document"
        emptyTitle="No invoices yet"
        emptyDescription="Each month's invoice appears here once the membership is paid."
        loadingLabel="Loading invoices"
        inTitledCard
      />
      {invoices.isError && invoices.data && (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          {invoices.error.message}
        </Callout>
      )}
      {rows.length > 0 && (
        <DataTable caption="Invoices" columns={INVOICE_COLUMNS} className="mrn-table-middle">
          {rows.map((invoice) => (
            <InvoiceRow key={invoice.id} invoice={invoice} />
          ))}
        </DataTable>
      )}
      {pagination && pagination.total_count > 0 && (
        <div className="mrn-invoice-pager">
          <Pager pagination={pagination} onPageChange={setPage} loading={invoices.isPlaceholderData} />
        </div>
      )}
    </Card>
  );
}

function InvoiceRow({ invoice }: { invoice: InvoiceView }) {
  const date = formatDate(invoice.created_at);
  return (
    <tr>
      <td data-label="Date">{date}</td>
      <td data-label="Amount">{formatCents(invoice.amount_due)}</td>
      <td data-label="Paid?">
        {invoice.paid ? (
          <Tag minimal intent={Intent.SUCCESS} icon="tick">
            Paid
          </Tag>
        ) : (
          <span className="mrn-tag-row">
            <Tag minimal intent={invoice.status === 'open' ? Intent.WARNING : Intent.NONE}>
              {invoice.status === 'open' ? 'Not paid' : `Not paid (${invoice.status})`}
            </Tag>
            {invoice.status === 'open' && invoice.hosted_invoice_url && (
              <a
                href={invoice.hosted_invoice_url}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={`Pay the invoice of ${date} (${formatCents(invoice.amount_due - invoice.amount_paid)})`}
              >
                Pay
              </a>
            )}
          </span>
        )}
      </td>
      <td data-label="Download PDF">
        {invoice.invoice_pdf ? (
          <a
            href={invoice.invoice_pdf}
            target="_blank"
            rel="noopener noreferrer"
            className="mrn-invoice-pdf"
            aria-label={`Download PDF of the invoice of ${date}`}
          >
            <Icon icon="download" size={14} />
            Download PDF
          </a>
        ) : (
          <span className={Classes.TEXT_MUTED}>Not available</span>
        )}
      </td>
    </tr>
  );
}
