import { Alert, Button, Card, H2, HTMLSelect, Icon, Intent, Switch, Tag, Tooltip } from '@blueprintjs/core';
import { type AccountView, routes } from '@mrn/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import {
  MEMBERSHIP_FILTERS,
  type MembershipFilter,
  membershipLabel,
  PLAN_FILTERS,
  type PlanFilter,
} from '../../accounts/membership.ts';
import { useFunderActions } from '../../accounts/use-funder-actions.ts';
import { downloadRoute } from '../../api/download.ts';
import { useApiQuery } from '../../api/hooks.ts';
import { contributionIntent, formatContribution } from '../../contribution/display.ts';
import { DataGrid, type GridColumn } from '../../grid/DataGrid.tsx';
import { formatDate } from '../../merchants/format.ts';
import { funderPath, PATHS } from '../../routing/paths.ts';
import { ListSearchBox } from '../../ui/ListSearchBox.tsx';
import { ListState } from '../../ui/ListState.tsx';
import { PagedListToolbar } from '../../ui/PagedListToolbar.tsx';
import { useDocumentTitle } from '../../ui/use-document-title.ts';
import { useDownload } from '../../ui/use-download.ts';
import { FUNDER_PAGE_SIZES, useFunderListParams } from './use-funder-list-params.ts';

const numberFormat = new Intl.NumberFormat('en-US');

const membershipText = (funder: AccountView) =>
  funder.archived_at ? 'Archived' : membershipLabel(funder.membership_status);

function MembershipIcon({ funder }: { funder: AccountView }) {
  if (funder.archived_at)
    return (
      <Tag minimal intent={Intent.DANGER}>
        Archived
      </Tag>
    );
  const active = funder.membership_status === 'active' || funder.membership_status === 'trialing';
  const label = membershipLabel(funder.membership_status);
  return (
    <Tooltip content={label} placement="top">
      <Icon
        icon={active ? 'tick-circle' : 'disable'}
        intent={active ? Intent.SUCCESS : Intent.NONE}
        className={active ? undefined : 'bp6-text-muted'}
        title={label}
        tabIndex={0}
      />
    </Tooltip>
  );
}

/** /funders: every funder for platform administrators (accounts §2). */
export function FundersPage() {
  useDocumentTitle('Funders');
  const navigate = useNavigate();
  const list = useFunderListParams();
  const membershipId = useId();
  const planId = useId();
  const [archiving, setArchiving] = useState<AccountView | null>(null);
  const exports = useDownload();
  const actions = useFunderActions({ onArchived: () => setArchiving(null) });
  const funders = useApiQuery(
    routes.listAccounts,
    {
      query: {
        page: list.page,
        per_page: list.perPage,
        search: list.search || undefined,
        membership_filter: list.membership || undefined,
        plan_level_filter: list.plan || undefined,
        ...list.sortQuery,
      },
    },
    { placeholderData: keepPreviousData, meta: { errorToast: true } },
  );
  const rows = funders.data?.data ?? [];
  const filtered = Boolean(list.search || list.membership || list.plan);

  const columns: GridColumn<AccountView>[] = [
    {
      id: 'name',
      name: 'Name',
      width: 200,
      flex: 3,
      sort: 'name',
      text: (f) => (f.plan_level === 'PRO' ? `${f.name} (PRO)` : f.name),
      render: (f) => (
        <>
          <Link to={funderPath(f.resource_id)}>{f.name}</Link>
          {f.plan_level === 'PRO' && (
            <Tag minimal intent={Intent.PRIMARY} className="mrn-inline-tag">
              PRO
            </Tag>
          )}
        </>
      ),
    },
    {
      id: 'merchants-added',
      name: 'Merchants Added',
      width: 0,
      sort: 'merchants_added',
      align: 'end',
      text: (f) => numberFormat.format(f.merchants_added),
      render: (f) => numberFormat.format(f.merchants_added),
    },
    {
      id: 'last-added',
      name: 'Last Added',
      width: 110,
      flex: 1,
      sort: 'last_added',
      text: (f) => formatDate(f.last_merchant_added_at) || '—',
      render: (f) => formatDate(f.last_merchant_added_at) || '—',
    },
    {
      id: 'contribution',
      name: '90 Day Cont. %',
      width: 0,
      sort: 'contribution',
      text: (f) => formatContribution(f.total_ninety_days_contribution_percentage),
      render: (f) => (
        <Tag minimal intent={contributionIntent(f.total_ninety_days_contribution_percentage)}>
          {formatContribution(f.total_ninety_days_contribution_percentage)}
        </Tag>
      ),
    },
    {
      id: 'api-access',
      name: 'API Access',
      width: 0,
      controls: true,
      text: (f) => (f.can_access_api ? 'On' : 'Off'),
      render: (f) => (
        <Switch
          className="mrn-cell-switch"
          checked={f.can_access_api}
          disabled={f.archived_at !== null || actions.apiBusy(f.resource_id)}
          onChange={() => actions.toggleApi(f)}
          aria-label={`API access for ${f.name}`}
        />
      ),
    },
    {
      id: 'mfa-required',
      name: 'MFA Required',
      width: 0,
      controls: true,
      text: (f) => (f.mfa_required ? 'On' : 'Off'),
      render: (f) => (
        <Switch
          className="mrn-cell-switch"
          checked={f.mfa_required}
          disabled={f.archived_at !== null || actions.mfaBusy(f.resource_id)}
          onChange={() => actions.toggleMfa(f)}
          aria-label={`MFA required for ${f.name}`}
        />
      ),
    },
    {
      id: 'membership',
      name: 'Membership?',
      width: 0,
      controls: true,
      text: membershipText,
      render: (f) => <MembershipIcon funder={f} />,
    },
    {
      id: 'delete',
      name: 'Delete',
      width: 0,
      controls: true,
      text: (f) => (f.archived_at ? 'Already archived' : 'Archive funder'),
      render: (f) => {
        const archived = f.archived_at !== null;
        return (
          <Tooltip content={archived ? 'Already archived' : 'Archive funder'} placement="left">
            <Button
              variant="minimal"
              size="small"
              intent={Intent.DANGER}
              icon="trash"
              aria-label={`Archive ${f.name}`}
              disabled={archived}
              loading={actions.archiveBusy(f.resource_id)}
              onClick={() => setArchiving(f)}
            />
          </Tooltip>
        );
      },
    },
  ];

  return (
    <div className="mrn-page">
      <header className="mrn-page-header mrn-header-row">
        <H2>Funders</H2>
        <div className="mrn-header-actions">
          <Button
            icon="download"
            text="Export Contacts"
            loading={exports.downloading !== null}
            onClick={() =>
              void exports.download('file', () => downloadRoute(routes.exportContacts, 'contacts.csv'))
            }
          />
          <Button
            intent={Intent.PRIMARY}
            icon="plus"
            text="Add Funder"
            onClick={() => navigate(PATHS.newFunder)}
          />
        </div>
      </header>
      <div className="mrn-list-toolbar">
        <ListSearchBox
          key={list.search}
          value={list.search}
          onSearch={list.setSearch}
          placeholder="Search by name"
        />
        <div className="mrn-filters">
          <span className="mrn-filter">
            <label htmlFor={membershipId}>Membership Status</label>
            <HTMLSelect
              id={membershipId}
              value={list.membership}
              onChange={(event) => list.setMembership(event.target.value as MembershipFilter)}
              options={MEMBERSHIP_FILTERS.map((f) => ({ value: f.value, label: f.label }))}
            />
          </span>
          <span className="mrn-filter">
            <label htmlFor={planId}>Plan Level</label>
            <HTMLSelect
              id={planId}
              value={list.plan}
              onChange={(event) => list.setPlan(event.target.value as PlanFilter)}
              options={PLAN_FILTERS.map((f) => ({ value: f.value, label: f.label }))}
            />
          </span>
        </div>
      </div>
      {funders.data && <PagedListToolbar list={list} pageSizes={FUNDER_PAGE_SIZES} query={funders} />}
      <ListState
        isPending={funders.isPending}
        error={funders.error}
        isEmpty={rows.length === 0}
        emptyIcon="bank-account"
        emptyTitle={filtered ? 'No funders match these filters' : 'No funders yet'}
        emptyDescription={filtered ? undefined : 'Add the first funder with Add Funder.'}
      />
      {rows.length > 0 && (
        <Card className="mrn-table-card mrn-grid-card" elevation={1}>
          <DataGrid
            label="Funders"
            rows={rows}
            columns={columns}
            rowName={(f) => f.name}
            onOpen={(f) => navigate(funderPath(f.resource_id))}
            stale={funders.isPlaceholderData}
            resetKey={`${list.page}/${list.perPage}/${list.search}/${list.membership}/${list.plan}/${list.sortKey}`}
            sorting={list.sorting}
          />
        </Card>
      )}
      <Alert
        isOpen={archiving !== null}
        intent={Intent.DANGER}
        icon="trash"
        confirmButtonText="Archive Funder"
        cancelButtonText="Cancel"
        canEscapeKeyCancel
        loading={archiving ? actions.archiveBusy(archiving.resource_id) : false}
        onCancel={() => setArchiving(null)}
        onConfirm={() => archiving && actions.archive(archiving.resource_id)}
      >
        <p>
          Archive <strong>{archiving?.name}</strong>? Its members can no longer sign in. The merchants and
          notes it added stay in the network.
        </p>
      </Alert>
    </div>
  );
}
