import { Button, Card, H2, Intent, NonIdealState, Tag } from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import { useNavigate, useParams } from 'react-router-dom';
import { useApiQuery } from '../../api/hooks.ts';
import { cityState, formatDate } from '../../merchants/format.ts';
import { CategoryTag, EinCell, LatestCategoryCell } from '../../merchants/table-cells.tsx';
import { merchantPath, PATHS } from '../../routing/paths.ts';
import { LinkedRow } from '../../ui/LinkedRow.tsx';
import { PageSpinner } from '../../ui/PageSpinner.tsx';
import { TableCard } from '../../ui/TableCard.tsx';
import { useDocumentTitle } from '../../ui/use-document-title.ts';

const COLUMNS = ['Name', 'EIN/BN', 'City/State', 'Latest Note Category', 'Carries', 'Reported'];

/** /brokers/{key} (issue 24, PRO): one broker's record and the merchants it brought. */
export function BrokerPage() {
  const { key = '' } = useParams();
  const navigate = useNavigate();
  const broker = useApiQuery(
    routes.getBroker,
    { params: { key } },
    { select: (a) => a.data, meta: { quietStatuses: [400, 403, 404] }, retry: false },
  );
  useDocumentTitle(broker.data?.broker_name ?? 'Broker');
  if (broker.isPending) return <PageSpinner label="Loading broker" />;
  if (broker.isError)
    return (
      <NonIdealState
        className="mrn-not-found"
        icon={broker.error.status === 403 ? 'lock' : 'search'}
        title={broker.error.status === 403 ? 'Broker records are a PRO feature' : 'Broker not found'}
        description={broker.error.message}
        action={<Button icon="arrow-left" text="All brokers" onClick={() => navigate(PATHS.brokers)} />}
      />
    );
  const b = broker.data;
  const figures = [
    ['Merchants brought', b.merchants, Intent.NONE],
    ['With Default', b.with_default, Intent.DANGER],
    ['With Fraud', b.with_fraud, Intent.DANGER],
    ['With Stacking', b.with_stacking, Intent.WARNING],
  ] as const;
  return (
    <div className="mrn-page">
      <Card className="mrn-merchant-card" elevation={1}>
        <H2>{b.broker_name}</H2>
        <p className="bp6-text-muted">Broker / ISO · last reported {formatDate(b.last_reported_at)}</p>
        <ul className="mrn-inquiry-windows mrn-broker-figures">
          {figures.map(([label, n, intent]) => (
            <li key={label}>
              <Tag
                size="large"
                round
                minimal={n === 0 || intent === Intent.NONE}
                intent={n > 0 ? intent : Intent.NONE}
              >
                {n}
              </Tag>
              <span className="mrn-secondary">{label}</span>
            </li>
          ))}
        </ul>
      </Card>
      <TableCard caption={`Merchants ${b.broker_name} brought`} columns={COLUMNS} interactive>
        {b.merchant_list.map((m) => (
          <LinkedRow key={m.resource_id} to={merchantPath(m.resource_id)} name={m.legal_name}>
            <EinCell fein={m.fein} />
            <td data-label="City/State">{cityState(m)}</td>
            <LatestCategoryCell category={m.last_note_category} />
            <td data-label="Carries">
              <span className="mrn-linked-facts">
                {m.default && <CategoryTag category="Default" />}
                {m.fraud && <CategoryTag category="Suspicious Activity" />}
                {m.stacking && <CategoryTag category="Stacking History" />}
                {!m.default && !m.fraud && !m.stacking && '—'}
              </span>
            </td>
            <td data-label="Reported" className="mrn-nowrap">
              {formatDate(m.reported_at)}
            </td>
          </LinkedRow>
        ))}
      </TableCard>
      <p className="mrn-secondary">
        Listed: the newest {b.merchant_list.length} of {b.merchants}.
      </p>
    </div>
  );
}
