import { Classes, H2 } from '@blueprintjs/core';
import { useDocumentTitle } from '../ui/use-document-title.ts';

/** A page whose content a later issue builds: its title and what it will hold. */
export function PlaceholderPage({ title, summary }: { title: string; summary: string }) {
  useDocumentTitle(title);
  return (
    <div className="mrn-page">
      <header className="mrn-page-header">
        <H2>{title}</H2>
      </header>
      <p className={Classes.RUNNING_TEXT}>{summary}</p>
    </div>
  );
}
