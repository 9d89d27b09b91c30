import { Callout, Intent, NonIdealState, Tag } from '@blueprintjs/core';
import { routes } from '@mrn/contracts/routes/index';
import { useApiQuery } from '../../api/hooks.ts';
import { formatDateTime } from '../../merchants/format.ts';
import { DataTable } from '../../ui/DataTable.tsx';
import { PageSpinner } from '../../ui/PageSpinner.tsx';

const COLUMNS = ['When', 'What', 'By', 'Account', 'On behalf of', 'Source'];

/** Platform administrators: the merchant's full history replayed from its events (DESIGN §1 audit replay). */
export function MerchantHistory({ merchantId }: { merchantId: string }) {
  const history = useApiQuery(
    routes.merchantHistory,
    { params: { id: merchantId } },
    { select: (a) => a.data },
  );
  if (history.isPending) return <PageSpinner label="Loading history" />;
  if (history.isError)
    return (
      <Callout intent={Intent.DANGER} icon="error" role="alert">
        {history.error.message}
      </Callout>
    );
  if (history.data.length === 0) return <NonIdealState icon="history" title="No history recorded" />;

  return (
    <DataTable caption="Merchant history, oldest first" columns={COLUMNS} compact>
      {history.data.map((entry) => (
        <tr key={entry.revision}>
          <td data-label="When" className="mrn-cell-title mrn-nowrap">
            {formatDateTime(entry.recorded_at)}
          </td>
          <td data-label="What">
            <div>{entry.summary}</div>
            <div className="mrn-secondary mrn-small">{entry.type}</div>
          </td>
          <td data-label="By">{entry.actor_user ?? '—'}</td>
          <td data-label="Account">{entry.actor_account ?? '—'}</td>
          <td data-label="On behalf of">{entry.on_behalf_of_account ?? '—'}</td>
          <td data-label="Source">{entry.source ? <Tag minimal>{entry.source}</Tag> : '—'}</td>
        </tr>
      ))}
    </DataTable>
  );
}
