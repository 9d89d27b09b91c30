import { Button, Callout, Card, H2, HTMLTable, Intent, NonIdealState, Tag } from '@blueprintjs/core';
import { routes } from '@mrn/contracts/routes/index';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useApiQuery } from '../../api/hooks.ts';
import { MerchantSearchForm } from '../../layout/MerchantSearchForm.tsx';
import { categoryIntent } from '../../merchants/category-intent.ts';
import { cityState, displayEin } from '../../merchants/format.ts';
import { SEARCH_RESULTS_STALE_MS } from '../../merchants/use-merchant-search.tsx';
import { merchantPath, newMerchantPath } from '../../routing/paths.ts';
import { PageSpinner } from '../../ui/PageSpinner.tsx';
import { useDocumentTitle } from '../../ui/use-document-title.ts';

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
      <Card className="mrn-table-card" elevation={1}>
        <div className="mrn-table-scroll">
          <HTMLTable className="mrn-table mrn-table-stack" interactive striped>
            <caption className="mrn-visually-hidden">
              {merchants.length} merchants matching {term}
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">EIN/BN</th>
                <th scope="col">City/State</th>
                <th scope="col">Latest Note Category</th>
              </tr>
            </thead>
            <tbody>
              {merchants.map((m) => (
                <tr key={m.resource_id} onClick={() => navigate(merchantPath(m.resource_id))}>
                  <td className="mrn-cell-title" data-label="Name">
                    <Link to={merchantPath(m.resource_id)} onClick={(e) => e.stopPropagation()}>
                      {m.legal_name}
                    </Link>
                    {m.dba && <div className="mrn-secondary">DBA {m.dba}</div>}
                  </td>
                  <td data-label="EIN/BN" className="mrn-nowrap">
                    {displayEin(m.fein)}
                  </td>
                  <td data-label="City/State">{cityState(m)}</td>
                  <td data-label="Latest Note Category">
                    {m.last_note_category ? (
                      <Tag intent={categoryIntent(m.last_note_category)} minimal>
                        {m.last_note_category}
                      </Tag>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      </Card>
    </>
  );
}
