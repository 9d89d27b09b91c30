import { Classes, H2 } from '@blueprintjs/core';
import { useSearchParams } from 'react-router-dom';
import { useDocumentTitle } from '../ui/use-document-title.ts';

/** /search: the merchants a search finds (titled Merchants, core spec §2); results come with merchant search. */
export function SearchPage() {
  const [searchParams] = useSearchParams();
  const term = searchParams.get('search')?.trim() ?? '';
  useDocumentTitle('Merchants');
  return (
    <div className="mrn-page">
      <header className="mrn-page-header">
        <H2>Merchants</H2>
      </header>
      <p className={Classes.RUNNING_TEXT}>
        {term ? `Merchants matching “${term}” will be listed here.` : 'Search by full EIN or legal name.'}
      </p>
    </div>
  );
}
