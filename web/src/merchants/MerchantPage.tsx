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
  Tab,
  Tabs,
  Tag,
} from '@blueprintjs/core';
import { type NoteView, routes, type SearchedMerchantView } from '@mrn/contracts';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useApiQuery } from '../api/hooks.ts';
import { useSignedInUser } from '../auth/auth-context.ts';
import { hasProFeatures, mayEditMerchant } from '../auth/permissions.ts';
import { deletedMerchantPath, PATHS } from '../routing/paths.ts';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { useDocumentTitle } from '../ui/use-document-title.ts';
import { AddedBy } from './AddedBy.tsx';
import { ArchiveNoteAlert } from './ArchiveNoteAlert.tsx';
import { categoryIntent } from './category-intent.ts';
import { DeleteMerchantDialog } from './DeleteMerchantDialog.tsx';
import { DeletionRequestDialog } from './DeletionRequestDialog.tsx';
import { draftNoteOf } from './draft-note.ts';
import { EditMerchantDialog } from './EditMerchantDialog.tsx';
import { displayEin, formatDate, fullAddress } from './format.ts';
import { InquiryAudit } from './InquiryAudit.tsx';
import { InquiryFigures, InquiryTag } from './InquiryBadge.tsx';
import { LinkedMerchants } from './LinkedMerchants.tsx';
import { Fact, MerchantFacts } from './MerchantFacts.tsx';
import { MerchantHistory } from './MerchantHistory.tsx';
import { NoteDialog, type NoteDialogMode } from './NoteDialog.tsx';
import { NotesList } from './NotesList.tsx';
import { SignalsPanel } from './RiskSignals.tsx';
import { SearchHistory } from './SearchHistory.tsx';
import { SubscriptionSwitch } from './SubscriptionSwitch.tsx';
import { describeSignalFilter, notesOfSignal, signalFilterOf } from './signal-notes.ts';

const countedNotes = (n: number) => `Showing ${n} ${n === 1 ? 'note' : 'notes'}`;

/** /merchants/{id}: merchant detail with notes (core spec §2); platform admins get the admin variant. */
export function MerchantPage() {
  const { id = '' } = useParams();
  const user = useSignedInUser();
  const navigate = useNavigate();
  const merchant = useApiQuery(
    routes.getMerchant,
    { params: { id } },
    {
      select: (a) => a.data,
      meta: { errorToast: true, quietStatuses: [400, 404, 410] },
      // One quick second try for a failure that may pass (the network, a 5xx), then the page says so
      // with Retry, rather than spinning through the default back-off.
      retry: (failures, error) => !error.isClientError && failures < 1,
      retryDelay: 500,
    },
  );
  useDocumentTitle(merchant.data?.legal_name ?? 'Merchant');

  if (merchant.isPending) return <PageSpinner label="Loading merchant" />;
  if (merchant.isError) {
    const missing = [400, 404, 410].includes(merchant.error.status);
    return (
      <NonIdealState
        className="mrn-not-found"
        icon={missing ? 'search' : 'error'}
        title={missing ? 'Merchant not found' : 'The merchant could not be loaded'}
        description={missing ? 'It may have been deleted, or the link is wrong.' : merchant.error.message}
        action={
          missing ? (
            user.is_dm_admin ? (
              <Button text="Look in deleted merchants" onClick={() => navigate(deletedMerchantPath(id))} />
            ) : (
              <Button icon="home" text="Go to the dashboard" onClick={() => navigate(PATHS.dashboard)} />
            )
          ) : (
            <Button
              icon="refresh"
              intent={Intent.PRIMARY}
              text="Retry"
              loading={merchant.isFetching}
              onClick={() => void merchant.refetch()}
            />
          )
        }
      />
    );
  }
  return <MerchantDetail merchant={merchant.data} />;
}

function MerchantDetail({ merchant }: { merchant: SearchedMerchantView }) {
  const user = useSignedInUser();
  const navigate = useNavigate();
  const location = useLocation();
  // A note carried from Add Merchant opens at once, then leaves the history entry (not on a reload).
  const [noteDialog, setNoteDialog] = useState<NoteDialogMode | null>(() => {
    const draft = draftNoteOf(location.state);
    return draft ? { kind: 'add', merchantId: merchant.resource_id, draft } : null;
  });
  useEffect(() => {
    if (draftNoteOf(location.state)) navigate(location, { replace: true, state: null });
  }, [location, navigate]);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [tab, setTab] = useState<'details' | 'history' | 'inquiries'>('details');
  const canEdit = mayEditMerchant(user, merchant);

  const details = (
    <MerchantDetailBody
      merchant={merchant}
      onAddNote={() => setNoteDialog({ kind: 'add', merchantId: merchant.resource_id })}
      onEditNote={(note) => setNoteDialog({ kind: 'edit', note })}
    />
  );

  return (
    <div className="mrn-page">
      <Card className="mrn-merchant-card" elevation={1}>
        <div className="mrn-merchant-card-head">
          <div className="mrn-merchant-title">
            <H2>{merchant.legal_name}</H2>
            {merchant.dba && <p className={Classes.TEXT_MUTED}>DBA {merchant.dba}</p>}
          </div>
          <div className="mrn-merchant-actions">
            <SubscriptionSwitch merchant={merchant} />
            <Button
              intent={Intent.PRIMARY}
              icon="plus"
              text="Add Note"
              onClick={() => setNoteDialog({ kind: 'add', merchantId: merchant.resource_id })}
            />
            {canEdit && <Button icon="edit" text="Edit Merchant" onClick={() => setEditing(true)} />}
            {user.is_dm_admin && (
              <Button
                icon="trash"
                intent={Intent.DANGER}
                variant="outlined"
                text="Delete Merchant"
                onClick={() => setDeleting(true)}
              />
            )}
          </div>
        </div>
        <MerchantFacts>
          <Fact label="EIN/BN">
            <span className="mrn-ein">{displayEin(merchant.fein)}</span>
          </Fact>
          <Fact label="Address">{merchant.address ?? fullAddress(merchant)}</Fact>
          <Fact label="Added By">
            <AddedBy funder={merchant.added_by} user={merchant.added_by_user} />
          </Fact>
          <Fact label="Added">{formatDate(merchant.created_at)}</Fact>
          <Fact label="Latest Note">
            {merchant.last_note_category ? (
              <Tag intent={categoryIntent(merchant.last_note_category)}>{merchant.last_note_category}</Tag>
            ) : null}
          </Fact>
          <Fact label="Other Funders (7 days)">
            <InquiryTag inquiries={merchant.inquiries} />
          </Fact>
        </MerchantFacts>
        <SignalsPanel merchantId={merchant.resource_id} signals={merchant.signals} />
      </Card>

      {user.is_dm_admin ? (
        <Tabs
          id="merchant-tabs"
          className="mrn-account-tabs"
          // Three tabs wrap on a phone; the sliding indicator would land outside the page (AccountTabs).
          animate={false}
          selectedTabId={tab}
          onChange={(next) => setTab(next === 'history' || next === 'inquiries' ? next : 'details')}
          size="large"
        >
          <Tab id="details" title="Merchant" panel={details} />
          <Tab
            id="history"
            title="History"
            icon="history"
            panel={<MerchantHistory merchantId={merchant.resource_id} />}
          />
          <Tab
            id="inquiries"
            title="Inquiry Audit"
            icon="people"
            panel={<InquiryAudit merchantId={merchant.resource_id} />}
          />
        </Tabs>
      ) : (
        details
      )}

      <NoteDialog mode={noteDialog} onClose={() => setNoteDialog(null)} />
      <EditMerchantDialog merchant={merchant} isOpen={editing} onClose={() => setEditing(false)} />
      <DeleteMerchantDialog
        merchant={deleting ? merchant : null}
        onClose={() => setDeleting(false)}
        onDeleted={(id) => navigate(deletedMerchantPath(id))}
      />
    </div>
  );
}

function MerchantDetailBody({
  merchant,
  onAddNote,
  onEditNote,
}: {
  merchant: SearchedMerchantView;
  onAddNote: () => void;
  onEditNote: (note: NoteView) => void;
}) {
  const user = useSignedInUser();
  const isPro = hasProFeatures(user);
  const [searchParams, setSearchParams] = useSearchParams();
  const highlight = searchParams.get('highlight');
  const signalFilter = signalFilterOf(searchParams);
  const signalKey = signalFilter ? `${signalFilter.kind}:${signalFilter.window}` : null;
  const [archiving, setArchiving] = useState<NoteView | null>(null);
  const [requesting, setRequesting] = useState<NoteView | null>(null);
  const notes = useApiQuery(
    routes.listMerchantNotes,
    { params: { id: merchant.resource_id } },
    // A merchant deleted meanwhile answers 404: the merchant query explains that, not a toast.
    { select: (a) => a.data, meta: { errorToast: true, quietStatuses: [404, 410] } },
  );
  // A signal's link lands on the notes it was counted from, once they are shown.
  useEffect(() => {
    if (signalKey && notes.data) document.getElementById('notes')?.scrollIntoView({ block: 'start' });
  }, [signalKey, notes.data]);

  return (
    <div className="mrn-merchant-layout">
      <div className="mrn-merchant-info">
        <Section title="Merchant Information" icon="shop" elevation={1} compact>
          <SectionCard>
            <MerchantFacts>
              <Fact label="Legal Name">{merchant.legal_name}</Fact>
              <Fact label="DBA">{merchant.dba}</Fact>
              <Fact label="EIN/BN">{displayEin(merchant.fein)}</Fact>
              <Fact label="Street 1">{merchant.street1}</Fact>
              <Fact label="Street 2">{merchant.street2}</Fact>
              <Fact label="City">{merchant.city}</Fact>
              <Fact label="State">{merchant.state}</Fact>
            </MerchantFacts>
          </SectionCard>
        </Section>
        <Section title="Additional Information" icon="info-sign" elevation={1} compact collapsible>
          <SectionCard>
            <MerchantFacts>
              <Fact label="Business Phone">{merchant.business_phone}</Fact>
              <Fact label="Business Start Date">{formatDate(merchant.business_startdate)}</Fact>
              <Fact label="Industry">{merchant.industry}</Fact>
            </MerchantFacts>
          </SectionCard>
        </Section>
        <Section title="Inquiry Velocity" icon="people" elevation={1} compact collapsible>
          <SectionCard>
            <InquiryFigures inquiries={merchant.inquiries} />
          </SectionCard>
        </Section>
        <Section title="Possibly the Same Business" icon="link" elevation={1} compact collapsible>
          <SectionCard>
            <LinkedMerchants merchantId={merchant.resource_id} fein={merchant.fein} />
          </SectionCard>
        </Section>
        <Section title="Search History" icon="timeline-line-chart" elevation={1} compact collapsible>
          <SectionCard>
            <SearchHistory fein={merchant.fein} isPro={isPro} />
          </SectionCard>
        </Section>
      </div>
      <Section
        className="mrn-merchant-notes"
        id="notes"
        title="Notes"
        icon="annotation"
        elevation={1}
        subtitle={
          notes.data ? `${notes.data.length} ${notes.data.length === 1 ? 'note' : 'notes'}` : undefined
        }
        rightElement={
          <Button intent={Intent.PRIMARY} icon="plus" text="Add Note" onClick={onAddNote} size="small" />
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
            <>
              {signalFilter && (
                <Callout intent={Intent.PRIMARY} icon="filter" className="mrn-inline-callout" role="status">
                  {countedNotes(notesOfSignal(notes.data, signalFilter, new Date()).length)} counted in{' '}
                  {describeSignalFilter(signalFilter)}.{' '}
                  <Button
                    variant="minimal"
                    size="small"
                    text="Show all notes"
                    onClick={() => setSearchParams({}, { replace: true })}
                  />
                </Callout>
              )}
              <NotesList
                notes={signalFilter ? notesOfSignal(notes.data, signalFilter, new Date()) : notes.data}
                showSubmissionSource={isPro}
                highlightId={highlight}
                actions={{ onEdit: onEditNote, onArchive: setArchiving, onRequestDeletion: setRequesting }}
                emptyTitle={signalFilter ? 'No notes in this signal' : 'No notes about this merchant yet'}
              />
            </>
          )}
        </SectionCard>
      </Section>
      <ArchiveNoteAlert note={archiving} onClose={() => setArchiving(null)} />
      <DeletionRequestDialog note={requesting} onClose={() => setRequesting(null)} />
    </div>
  );
}
