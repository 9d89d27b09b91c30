import { Card, H2, NonIdealState } from '@blueprintjs/core';
import { BROKERS_PER_PAGE, type BrokerRecordView, routes } from '@mrn/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { UpgradeActions } from '../../accounts/ProUpgrade.tsx';
import { useApiQuery } from '../../api/hooks.ts';
import { useSignedInUser } from '../../auth/auth-context.ts';
import { hasProFeatures } from '../../auth/permissions.ts';
import { DataGrid, type GridColumn } from '../../grid/DataGrid.tsx';
import { formatDate } from '../../merchants/format.ts';
import { brokerPath } from '../../routing/paths.ts';
import { ListState } from '../../ui/ListState.tsx';
import { PagedListToolbar } from '../../ui/PagedListToolbar.tsx';
import { useDocumentTitle } from '../../ui/use-document-title.ts';
import { useListParams } from '../../ui/use-list-params.ts';

/** "2 of 5", with what the count is in the accessible text. */
const share = (n: number, of: number) => `${n} of ${of}`;

const columns: GridColumn<BrokerRecordView>[] = [
  {
    id: 'name',
    name: 'Broker',
    width: 220,
    flex: 3,
    text: (b) => b.broker_name,
    render: (b) => <Link to={brokerPath(b.broker_key)}>{b.broker_name}</Link>,
  },
  {
    id: 'merchants',
    name: 'Merchants',
    width: 100,
    text: (b) => String(b.merchants),
    render: (b) => b.merchants,
  },
  {
    id: 'default',
    name: 'With Default',
    width: 120,
    text: (b) => share(b.with_default, b.merchants),
    render: (b) => share(b.with_default, b.merchants),
  },
  {
    id: 'fraud',
    name: 'With Fraud',
    width: 110,
    text: (b) => share(b.with_fraud, b.merchants),
    render: (b) => share(b.with_fraud, b.merchants),
  },
  {
    id: 'stacking',
    name: 'With Stacking',
    width: 120,
    text: (b) => share(b.with_stacking, b.merchants),
    render: (b) => share(b.with_stacking, b.merchants),
  },
  {
    id: 'last',
    name: 'Last Reported',
    width: 0,
    flex: 1,
    text: (b) => formatDate(b.last_reported_at),
    render: (b) => formatDate(b.last_reported_at),
  },
];

/**
 * /brokers (issue 24, PRO): brokers as notes across the network name them, with the merchants each
 * brought and how many of those carry Default, Fraud or Stacking notes; BASIC sees what PRO would show.
 */
export function BrokersPage() {
  useDocumentTitle('Brokers');
  const user = useSignedInUser();
  return (
    <div className="mrn-page">
      <header className="mrn-page-header">
        <H2>Brokers</H2>
        <p className="bp6-text-muted">
          Brokers (ISOs) as the network’s notes name them, however the name was typed, with the merchants each
          brought and how many of those carry Default, Fraud (Suspicious Activity) or Stacking notes from any
          funder. Deleted notes and merchants are not counted.
        </p>
      </header>
      {hasProFeatures(user) ? (
        <BrokerList />
      ) : (
        <NonIdealState
          icon="lock"
          title="Broker records are a PRO feature"
          description="Submission sources are PRO data: upgrade to PRO to see which brokers brought merchants that later defaulted, were stacked or looked fraudulent."
          action={<UpgradeActions user={user} />}
        />
      )}
    </div>
  );
}

function BrokerList() {
  const list = useListParams(BROKERS_PER_PAGE, BROKERS_PER_PAGE[0]);
  const navigate = useNavigate();
  const brokers = useApiQuery(
    routes.listBrokers,
    { query: { page: list.page, per_page: list.perPage, search: list.search || undefined } },
    { placeholderData: keepPreviousData, meta: { errorToast: true } },
  );
  const rows = brokers.data?.data ?? [];
  return (
    <>
      <PagedListToolbar
        list={list}
        pageSizes={BROKERS_PER_PAGE}
        query={brokers}
        searchPlaceholder="Search by broker name"
      />
      <ListState
        isPending={brokers.isPending}
        error={brokers.error}
        isEmpty={rows.length === 0}
        emptyIcon="briefcase"
        emptyTitle={list.search ? 'No broker matches this search' : 'No note names a broker yet'}
      />
      {rows.length > 0 && (
        <Card className="mrn-table-card mrn-grid-card" elevation={1}>
          <DataGrid
            label="Brokers"
            rows={rows}
            columns={columns}
            rowHeight={40}
            rowName={(b) => b.broker_name}
            onOpen={(b) => navigate(brokerPath(b.broker_key))}
            stale={brokers.isPlaceholderData}
            resetKey={`${list.page}/${list.perPage}/${list.search}`}
          />
        </Card>
      )}
    </>
  );
}
