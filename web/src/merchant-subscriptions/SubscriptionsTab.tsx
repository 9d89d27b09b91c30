import { Alert, Button, Checkbox, Intent, Tooltip } from '@blueprintjs/core';
import {
  MERCHANT_SUBSCRIPTIONS_PER_PAGE,
  type MerchantSubscriptionView,
  type Pagination,
  routes,
  SUBSCRIPTION_TEXTS,
} from '@mrn/contracts';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { apiQueryKey, useApiMutation, useApiQuery } from '../api/hooks.ts';
import { invalidateApiPaths } from '../api/invalidate.ts';
import { useSignedInUser } from '../auth/auth-context.ts';
import { displayEin, formatDate } from '../merchants/format.ts';
import { merchantPath } from '../routing/paths.ts';
import { ListSearchBox } from '../ui/ListSearchBox.tsx';
import { ListState } from '../ui/ListState.tsx';
import { Pager } from '../ui/Pager.tsx';
import { TableCard } from '../ui/TableCard.tsx';
import { showError, showSuccess } from '../ui/toaster.ts';
import { useDownload } from '../ui/use-download.ts';
import { useListParams } from '../ui/use-list-params.ts';
import { AddSubscriptionDialog } from './AddSubscriptionDialog.tsx';
import { downloadWatchedMerchants } from './export-file.ts';
import { UploadCsvDialog } from './UploadCsvDialog.tsx';

const PAGE_SIZES = [MERCHANT_SUBSCRIPTIONS_PER_PAGE] as const;
const COLUMNS = ['Select', 'EIN/BN', 'Merchant', 'Added', 'Watched until', 'Delete'];

/**
 * The last day a search watch covers (it ends at the next UTC midnight), as a date that does not shift
 * with the viewer's time zone; "—" for an EIN subscribed by a person, watched for good.
 */
const watchedUntil = (watchUntil: string | null) =>
  watchUntil ? formatDate(new Date(Date.parse(watchUntil) - 1).toISOString().slice(0, 10)) : '—';
const numberFormat = new Intl.NumberFormat('en-US');

type Deleting = { kind: 'selected'; ids: string[]; label: string } | { kind: 'all'; count: number };

/** The Merchant Subscriptions tab: the watched EINs, paged by 25, with add, upload and deletes. */
export function SubscriptionsTab({ onUploaded }: { onUploaded: () => void }) {
  const user = useSignedInUser();
  const accountId = user.account_resource_id;
  const queryClient = useQueryClient();
  const list = useListParams(PAGE_SIZES, MERCHANT_SUBSCRIPTIONS_PER_PAGE);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [adding, setAdding] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [deleting, setDeleting] = useState<Deleting | null>(null);
  const exports = useDownload();

  const query = { page: list.page, per_page: list.perPage, search: list.search || undefined };
  const subscriptions = useApiQuery(
    routes.listMerchantSubscriptions,
    { params: { id: accountId }, query },
    // Imports add subscriptions in the background: coming back to the tab asks again.
    { placeholderData: keepPreviousData, refetchOnMount: 'always', meta: { errorToast: true } },
  );
  const rows = subscriptions.data?.data ?? [];
  // Delete All removes every subscription of the account, whatever the search: a search asks the
  // whole count separately so the confirmation names it.
  const everything = useApiQuery(
    routes.listMerchantSubscriptions,
    { params: { id: accountId }, query: { page: 1, per_page: 1 } },
    { enabled: Boolean(list.search) },
  );
  const total = (list.search ? everything.data : subscriptions.data)?.pagination.total_count ?? 0;

  /** The delete calls answer the list's first page: show it, and refresh whatever else was cached. */
  const afterDelete = (answer: { data: MerchantSubscriptionView[]; pagination: Pagination }) => {
    const firstPage = { page: 1, per_page: list.perPage, search: list.search || undefined };
    queryClient.setQueryData(
      apiQueryKey(routes.listMerchantSubscriptions, { params: { id: accountId }, query: firstPage }),
      answer,
    );
    void invalidateApiPaths(queryClient, ['/api/merchants']);
    void queryClient.invalidateQueries({
      predicate: ({ queryKey }) =>
        queryKey[1] === routes.listMerchantSubscriptions.path &&
        JSON.stringify(queryKey[3]) !== JSON.stringify(firstPage),
    });
    setSelected(new Set());
    setDeleting(null);
    list.setPage(1);
    showSuccess(SUBSCRIPTION_TEXTS.deleted);
  };
  const deleteSelected = useApiMutation(routes.deleteSelectedMerchantSubscriptions, {
    onSuccess: afterDelete,
    onError: (error) => showError(error.message),
  });
  const deleteAll = useApiMutation(routes.deleteAllMerchantSubscriptions, {
    onSuccess: afterDelete,
    onError: (error) => showError(error.message),
  });
  const confirmDelete = () => {
    if (!deleting) return;
    const listState = { page: 1, per_page: list.perPage, search: list.search || undefined };
    if (deleting.kind === 'all') deleteAll.mutate({ params: { account_id: accountId }, body: listState });
    else
      deleteSelected.mutate({
        params: { account_id: accountId },
        body: { merchant_subscription_ids: deleting.ids, ...listState },
      });
  };

  const pageIds = rows.map((s) => s.id);
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const someOnPage = pageIds.some((id) => selected.has(id));
  const toggle = (id: string) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const toggleAll = () =>
    setSelected((previous) => {
      const next = new Set(previous);
      for (const id of pageIds) {
        if (allOnPage) next.delete(id);
        else next.add(id);
      }
      return next;
    });
  const busy = deleteSelected.isPending || deleteAll.isPending;

  return (
    <div className="mrn-subs-panel">
      <div className="mrn-subs-actions">
        <Button intent={Intent.PRIMARY} icon="plus" text="Add Subscription" onClick={() => setAdding(true)} />
        <Button icon="upload" text="Upload CSV" onClick={() => setUploading(true)} />
        <Tooltip
          content={
            list.search
              ? 'The watched EINs this search finds, each with its merchant and risk signals, as CSV.'
              : 'Every watched EIN with its merchant and risk signals (funders, categories in 90 days, 12 months and ever, cured, disputes), as CSV.'
          }
        >
          <Button
            icon="download"
            text="Export CSV"
            loading={exports.downloading !== null}
            disabled={total === 0}
            onClick={() =>
              void exports.download('file', () => downloadWatchedMerchants(accountId, list.search))
            }
          />
        </Tooltip>
        <Button
          icon="trash"
          intent={Intent.DANGER}
          variant="outlined"
          text={
            selected.size > 0 ? `Delete Selected (${numberFormat.format(selected.size)})` : 'Delete Selected'
          }
          disabled={selected.size === 0 || busy}
          onClick={() =>
            setDeleting({
              kind: 'selected',
              ids: [...selected],
              label: `${numberFormat.format(selected.size)} selected ${selected.size === 1 ? 'subscription' : 'subscriptions'}`,
            })
          }
        />
        <Button
          icon="delete"
          intent={Intent.DANGER}
          variant="outlined"
          text="Delete All"
          disabled={total === 0 || busy}
          onClick={() => setDeleting({ kind: 'all', count: total })}
        />
      </div>
      <div className="mrn-list-toolbar">
        <ListSearchBox
          key={list.search}
          value={list.search}
          onSearch={list.setSearch}
          placeholder="Search by EIN"
        />
        {subscriptions.data && (
          <Pager
            pagination={subscriptions.data.pagination}
            onPageChange={list.setPage}
            loading={subscriptions.isPlaceholderData}
          />
        )}
      </div>
      <ListState
        isPending={subscriptions.isPending}
        error={subscriptions.error}
        isEmpty={rows.length === 0}
        loadingLabel="Loading merchant subscriptions"
        emptyIcon="eye-open"
        emptyTitle={list.search ? 'No subscriptions match this EIN' : 'No merchant subscriptions yet'}
        emptyDescription={
          list.search
            ? undefined
            : 'Add an EIN with Add Subscription, or upload a CSV of EINs with Upload CSV.'
        }
      />
      {rows.length > 0 && (
        <>
          <Checkbox
            className="mrn-subs-select-all"
            checked={allOnPage}
            indeterminate={someOnPage && !allOnPage}
            onChange={toggleAll}
            label="Select all on this page"
          />
          <TableCard caption="Merchant subscriptions" columns={COLUMNS} className="mrn-table-middle">
            {rows.map((s) => {
              const ein = displayEin(s.fein);
              return (
                <tr key={s.id}>
                  <td data-label="Select" className="mrn-subs-check">
                    <Checkbox
                      checked={selected.has(s.id)}
                      onChange={() => toggle(s.id)}
                      aria-label={`Select ${ein}`}
                    />
                  </td>
                  <td data-label="EIN/BN" className="mrn-cell-title mrn-nowrap">
                    <span className="mrn-ein">{ein}</span>
                  </td>
                  <td data-label="Merchant">
                    {s.merchant ? (
                      <Link to={merchantPath(s.merchant.resource_id)}>{s.merchant.legal_name}</Link>
                    ) : (
                      <span className="bp6-text-muted">Not yet reported</span>
                    )}
                  </td>
                  <td data-label="Added" className="mrn-nowrap">
                    {formatDate(s.created_at)}
                  </td>
                  <td data-label="Watched until" className="mrn-nowrap">
                    {s.watch_until ? (
                      watchedUntil(s.watch_until)
                    ) : (
                      <span className="bp6-text-muted" title="Subscribed by your team: watched until deleted">
                        —
                      </span>
                    )}
                  </td>
                  <td data-label="Delete">
                    <Tooltip content="Delete subscription" placement="left">
                      <Button
                        variant="minimal"
                        intent={Intent.DANGER}
                        icon="trash"
                        aria-label={`Delete subscription ${ein}`}
                        disabled={busy}
                        onClick={() =>
                          setDeleting({ kind: 'selected', ids: [s.id], label: `the subscription to ${ein}` })
                        }
                      />
                    </Tooltip>
                  </td>
                </tr>
              );
            })}
          </TableCard>
        </>
      )}
      <Alert
        isOpen={deleting !== null}
        intent={Intent.DANGER}
        icon="trash"
        confirmButtonText={deleting?.kind === 'all' ? 'Delete All' : 'Delete'}
        cancelButtonText="Cancel"
        canEscapeKeyCancel
        loading={busy}
        onCancel={() => setDeleting(null)}
        onConfirm={confirmDelete}
      >
        {deleting?.kind === 'all' ? (
          <p>
            Delete all <strong>{numberFormat.format(deleting.count)}</strong> merchant{' '}
            {deleting.count === 1 ? 'subscription' : 'subscriptions'} of the account
            {list.search ? ', not only those matching the search' : ''}? You will no longer be notified about{' '}
            {deleting.count === 1 ? 'that merchant' : 'those merchants'}.
          </p>
        ) : (
          <p>
            Delete <strong>{deleting?.label}</strong>? You will no longer be notified about{' '}
            {deleting?.ids.length === 1 ? 'that merchant' : 'those merchants'}.
          </p>
        )}
      </Alert>
      <AddSubscriptionDialog accountId={accountId} isOpen={adding} onClose={() => setAdding(false)} />
      <UploadCsvDialog
        accountId={accountId}
        isOpen={uploading}
        onClose={() => setUploading(false)}
        onUploaded={() => {
          setUploading(false);
          onUploaded();
        }}
      />
    </div>
  );
}
