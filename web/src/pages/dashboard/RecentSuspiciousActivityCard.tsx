import { Callout, Card, H4, HTMLTable, Intent, NonIdealState, Spinner } from '@blueprintjs/core';
import { routes } from '@mrn/contracts/routes/index';
import { Link } from 'react-router-dom';
import { useApiQuery } from '../../api/hooks.ts';
import { displayEin, formatDate } from '../../merchants/format.ts';
import { merchantPath } from '../../routing/paths.ts';

const SUSPICIOUS = 'Suspicious Activity';
const SHOWN = 20;

/** The latest notes in category Suspicious Activity across the network (core spec §2). */
export function RecentSuspiciousActivityCard() {
  const recent = useApiQuery(routes.recentNotes, { query: { category: SUSPICIOUS, per_page: SHOWN } });

  return (
    <Card className="mrn-card mrn-table-card" elevation={1}>
      <H4>Recent Suspicious Activity</H4>
      {recent.isPending ? (
        <Spinner aria-label="Loading recent suspicious activity" />
      ) : recent.isError ? (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          {recent.error.message}
        </Callout>
      ) : recent.data.data.length === 0 ? (
        <NonIdealState
          icon="shield"
          title="No suspicious activity reported yet"
          description="Merchants recently reported with a Suspicious Activity note will be listed here."
        />
      ) : (
        <div className="mrn-table-scroll">
          <HTMLTable className="mrn-table mrn-table-stack" striped>
            <caption className="mrn-visually-hidden">Recent Suspicious Activity notes, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Merchant</th>
                <th scope="col">EIN/BN</th>
                <th scope="col">Date</th>
                <th scope="col">Note</th>
              </tr>
            </thead>
            <tbody>
              {recent.data.data.map((note) => (
                <tr key={note.id}>
                  <td className="mrn-cell-title" data-label="Merchant">
                    <Link to={merchantPath(note.merchant.resource_id, note.id)}>
                      {note.merchant.legal_name}
                    </Link>
                  </td>
                  <td data-label="EIN/BN" className="mrn-nowrap">
                    {displayEin(note.merchant.fein)}
                  </td>
                  <td data-label="Date" className="mrn-nowrap">
                    {formatDate(note.created_at)}
                  </td>
                  <td data-label="Note">
                    <span className="mrn-clamp">{note.note}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
    </Card>
  );
}
