import { Button, Callout, H2, Intent, NonIdealState } from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useApiQuery } from '../../api/hooks.ts';
import { cityState } from '../../merchants/format.ts';
import { InquiryTag } from '../../merchants/InquiryBadge.tsx';
import { MerchantSearchForm } from '../../merchants/MerchantSearchForm.tsx';
import { SignalsLine } from '../../merchants/RiskSignals.tsx';
import { EinCell, LatestCategoryCell } from '../../merchants/table-cells.tsx';
import { SEARCH_RESULTS_STALE_MS } from '../../merchants/use-merchant-search.tsx';
import { merchantPath, newMerchantPath } from '../../routing/paths.ts';
import { LinkedRow } from '../../ui/LinkedRow.tsx';
import { PageSpinner } from '../../ui/PageSpinner.tsx';
import { TableCard } from '../../ui/TableCard.tsx';
import { useDocumentTitle } from '../../ui/use-document-title.ts';

const COLUMNS = ['Name', 'EIN/BN', 'City/State', 'Latest Note Category', 'Risk Signals', 'Other Funders'];

/** /search: the merchants a search found, titled Merchants (core spec §2). */
export function SearchPage() {
  const [searchParams] = useSearchParams();
  const term = searchParams.get('search')?.trim() ?? '';
  useDocumentTitle('Merchants');

  return (
    <div className="mrn-page">
      <header className="mrn-page-header">
        <H2>Merchants</H2>
        {term && <p className="bp6-text-muted">Search results for “{term}”</p>}
      </header>
      <MerchantSearchForm
        key={term}
        className="mrn-search-page-form"
        placeholder="Search by full EIN or legal name"
        initialTerm={term}
      />
      {term ? <SearchResults term={term} /> : <p>Search by full EIN or legal name.</p>}
    </div>
  );
}

function SearchResults({ term }: { term: string }) {
  const navigate = useNavigate();
  const results = useApiQuery(
    routes.searchMerchants,
    { query: { search: term } },
    { staleTime: SEARCH_RESULTS_STALE_MS, retry: false },
  );

  if (results.isPending) return <PageSpinner label="Searching" />;
  if (results.isError) {
    if (results.error.status === 404)
      return (
        <NonIdealState
          icon="search"
          title="No Merchants Found"
          description={`No merchant matches “${term}”.`}
          action={
            <Button
              intent={Intent.PRIMARY}
              text="Yes, I want to add a merchant"
              onClick={() => navigate(newMerchantPath(term))}
            />
          }
        />
      );
    return (
      <Callout intent={Intent.DANGER} icon="error" role="alert">
        {results.error.message}
      </Callout>
    );
  }

  const { data: merchants, warning } = results.data;
  return (
    <>
      {warning && (
        <Callout intent={Intent.WARNING} icon="warning-sign" role="status">
          {warning}
        </Callout>
      )}
      <TableCard
        caption={`${merchants.length} ${merchants.length === 1 ? 'merchant' : 'merchants'} matching ${term}`}
        columns={COLUMNS}
        interactive
      >
        {merchants.map((m) => (
          <LinkedRow
            key={m.resource_id}
            to={merchantPath(m.resource_id)}
            name={m.legal_name}
            nameDetail={m.dba && <div className="mrn-secondary">DBA {m.dba}</div>}
          >
            <EinCell fein={m.fein} />
            <td data-label="City/State">{cityState(m)}</td>
            <LatestCategoryCell category={m.last_note_category} />
            <td data-label="Risk Signals">
              <SignalsLine merchantId={m.resource_id} signals={m.signals} />
            </td>
            <td data-label="Other Funders">
              <InquiryTag inquiries={m.inquiries} />
            </td>
          </LinkedRow>
        ))}
      </TableCard>
    </>
  );
}
