import { Callout, H4, HTMLTable, Intent, Spinner, SpinnerSize, Tag } from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import { useApiQuery } from '../api/hooks.ts';
import { formatDateTime } from './format.ts';

/**
 * Inquiry velocity explained, for platform administrators (issue 24): the figures, which funders each
 * window counts (by label, never by name), and every search of the last 90 days that found the merchant
 * with whether it counted and why. Beside the merchant's history, which replays its own stream.
 */
export function InquiryAudit({ merchantId }: { merchantId: string }) {
  const audit = useApiQuery(
    routes.merchantInquiryAudit,
    { params: { id: merchantId } },
    { select: (a) => a.data },
  );
  if (audit.isPending) return <Spinner size={SpinnerSize.SMALL} aria-label="Loading the inquiry audit" />;
  if (audit.isError)
    return (
      <Callout intent={Intent.DANGER} icon="error" role="alert">
        {audit.error.message}
      </Callout>
    );
  const a = audit.data;
  return (
    <div className="mrn-inquiry-audit">
      <p className="bp6-text-muted">
        Distinct funders that looked this merchant up, as every funder but the searcher’s own sees the figure:
        the searches below are the facts each figure is counted from. Funders are labelled, never named.
      </p>
      <ul className="mrn-inquiry-windows">
        {a.windows.map((w) => (
          <li key={w.days}>
            <Tag size="large" round minimal>
              {w.funders.length}
            </Tag>
            <span className="mrn-secondary">
              {w.days} days{w.funders.length > 0 ? `: ${w.funders.join(', ')}` : ''}
            </span>
          </li>
        ))}
      </ul>
      <H4 className="mrn-audit-heading">Searches of the last 90 days ({a.searches.length})</H4>
      {a.searches.length === 0 ? (
        <p>No search found this merchant in the last 90 days.</p>
      ) : (
        <div className="mrn-audit-scroll">
          <HTMLTable compact striped className="mrn-audit-table">
            <caption className="mrn-visually-hidden">Searches that found this merchant, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Counted</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {a.searches.map((s, i) => (
                // Two searches may share a time and a label: the position keeps the rows apart.
                // biome-ignore lint/suspicious/noArrayIndexKey: rows never move within one answer
                <tr key={i}>
                  <td className="mrn-nowrap">{formatDateTime(s.searched_at)}</td>
                  <td className="mrn-nowrap">{s.funder}</td>
                  <td>
                    {s.counted ? (
                      <Tag intent={Intent.SUCCESS} minimal>
                        Yes
                      </Tag>
                    ) : (
                      <Tag minimal>No</Tag>
                    )}
                  </td>
                  <td>{s.why}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
    </div>
  );
}
