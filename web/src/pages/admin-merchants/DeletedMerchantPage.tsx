import {
  Button,
  Callout,
  Card,
  Classes,
  H2,
  Intent,
  NonIdealState,
  Section,
  SectionCard,
  Tag,
} from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import { useNavigate, useParams } from 'react-router-dom';
import { useApiQuery } from '../../api/hooks.ts';
import { AddedBy } from '../../merchants/AddedBy.tsx';
import { displayEin, formatDate, fullAddress } from '../../merchants/format.ts';
import { Fact, MerchantFacts } from '../../merchants/MerchantFacts.tsx';
import { NotesList } from '../../merchants/NotesList.tsx';
import { PATHS } from '../../routing/paths.ts';
import { PageSpinner } from '../../ui/PageSpinner.tsx';
import { useDocumentTitle } from '../../ui/use-document-title.ts';

/** /deleted-merchants/{id}: a deleted merchant with its reason and its notes, read-only (core spec §2). */
export function DeletedMerchantPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const merchant = useApiQuery(
    routes.getDeletedMerchant,
    { params: { id } },
    { select: (a) => a.data, meta: { errorToast: true, quietStatuses: [400, 404] } },
  );
  const notes = useApiQuery(
    routes.listDeletedNotes,
    { params: { id } },
    {
      select: (a) => a.data,
      meta: { errorToast: true, quietStatuses: [400, 404] },
      enabled: merchant.isSuccess,
    },
  );
  useDocumentTitle(merchant.data ? `${merchant.data.legal_name} (deleted)` : 'Deleted Merchant');

  if (merchant.isPending) return <PageSpinner label="Loading deleted merchant" />;
  if (merchant.isError) {
    const missing = [400, 404].includes(merchant.error.status);
    return (
      <NonIdealState
        className="mrn-not-found"
        icon={missing ? 'search' : 'error'}
        title={missing ? 'Deleted merchant not found' : 'The deleted merchant could not be loaded'}
        description={missing ? 'It may not be deleted, or the link is wrong.' : merchant.error.message}
        action={
          <Button
            icon="arrow-left"
            text="Deleted Merchants"
            onClick={() => navigate(PATHS.deletedMerchants)}
          />
        }
      />
    );
  }
  const m = merchant.data;

  return (
    <div className="mrn-page">
      <Button
        className="mrn-back-link"
        variant="minimal"
        icon="arrow-left"
        text="Deleted Merchants"
        onClick={() => navigate(PATHS.deletedMerchants)}
      />
      <Card className="mrn-merchant-card mrn-deleted-card" elevation={1}>
        <div className="mrn-merchant-card-head">
          <div className="mrn-merchant-title">
            <H2>{m.legal_name}</H2>
            {m.dba && <p className={Classes.TEXT_MUTED}>DBA {m.dba}</p>}
          </div>
          <Tag intent={Intent.DANGER} size="large" icon="trash">
            Deleted {formatDate(m.archived_at)}
          </Tag>
        </div>
        <Callout intent={Intent.WARNING} icon="issue" title="Reason for deletion" className="mrn-callout-gap">
          <span className="mrn-preserve-lines">{m.reason ?? '—'}</span>
        </Callout>
        <MerchantFacts>
          <Fact label="EIN/BN">{displayEin(m.fein)}</Fact>
          <Fact label="Address">{m.address ?? fullAddress(m)}</Fact>
          <Fact label="Added By">
            <AddedBy funder={m.added_by} user={m.added_by_user} />
          </Fact>
          <Fact label="Added">{formatDate(m.created_at)}</Fact>
          <Fact label="Deleted">{formatDate(m.archived_at)}</Fact>
          <Fact label="Business Phone">{m.business_phone}</Fact>
          <Fact label="Business Start Date">{formatDate(m.business_startdate)}</Fact>
          <Fact label="Industry">{m.industry}</Fact>
        </MerchantFacts>
      </Card>
      <Section
        title="Deleted Notes"
        icon="annotation"
        elevation={1}
        subtitle={
          notes.data ? `${notes.data.length} ${notes.data.length === 1 ? 'note' : 'notes'}` : undefined
        }
      >
        <SectionCard padded={false}>
          {notes.isPending ? (
            <PageSpinner label="Loading notes" />
          ) : notes.isError ? (
            <Callout intent={Intent.DANGER} icon="error" role="alert" className="mrn-inline-callout">
              {notes.error.message}
            </Callout>
          ) : (
            <NotesList notes={notes.data} showSubmissionSource emptyTitle="This merchant had no notes" />
          )}
        </SectionCard>
      </Section>
    </div>
  );
}
