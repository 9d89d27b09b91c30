import { Button, NonIdealState } from '@blueprintjs/core';
import { MESSAGES } from '@mrn/contracts';
import { useNavigate } from 'react-router-dom';
import { PATHS } from '../routing/paths.ts';
import { useDocumentTitle } from '../ui/use-document-title.ts';

export function NotFoundPage() {
  const navigate = useNavigate();
  useDocumentTitle('Page not found');
  return (
    <NonIdealState
      className="mrn-not-found"
      icon="path-search"
      title={MESSAGES.pageNotFound}
      action={<Button icon="home" text="Go to the dashboard" onClick={() => navigate(PATHS.dashboard)} />}
    />
  );
}
