import {
  Button,
  Callout,
  Card,
  Classes,
  H2,
  Icon,
  Intent,
  NonIdealState,
  Section,
  SectionCard,
  Tab,
  Tabs,
  Tag,
} from '@blueprintjs/core';
import {
  DISPUTE_OUTCOME_TEXTS,
  DISPUTE_RESOLUTION_OUTCOMES,
  DISPUTE_STATUS_LABELS,
  type DisputeDetailView,
  routes,
} from '@mrn/contracts';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useApiQuery } from '../../api/hooks.ts';
import { DaysOpenTag } from '../../disputes/DaysOpenTag.tsx';
import { DisputeAssignment } from '../../disputes/DisputeAssignment.tsx';
import { DisputeComments } from '../../disputes/DisputeComments.tsx';
import { ResolveDisputeDialog } from '../../disputes/ResolveDisputeDialog.tsx';
import { cityState, displayEin, formatDateTime } from '../../merchants/format.ts';
import { Fact } from '../../merchants/MerchantFacts.tsx';
import { MerchantHistory } from '../../merchants/MerchantHistory.tsx';
import { NotesList } from '../../merchants/NotesList.tsx';
import { merchantPath, PATHS } from '../../routing/paths.ts';
import { PageSpinner } from '../../ui/PageSpinner.tsx';
import { useDocumentTitle } from '../../ui/use-document-title.ts';
import '../../disputes/disputes.css';

const STATUS_INTENT = { new: Intent.PRIMARY, in_review: Intent.WARNING, resolved: Intent.SUCCESS } as const;

/**
 * /disputes/{id}: one dispute with everything needed to answer it: the owner's claim, assignment, the
 * internal thread and the resolution on the left; the merchant's notes and its full audit replay from
 * the event store beside it (DESIGN §1: the evidence base for answering a dispute).
 */
export function DisputeDetailPage() {
  const { id = '' } = useParams();
  const dispute = useApiQuery(
    routes.getDispute,
    { params: { id } },
    { select: (a) => a.data, meta: { errorToast: true, quietStatuses: [400, 404] } },
  );
  useDocumentTitle(dispute.data ? `Dispute: ${dispute.data.legal_name}` : 'Dispute');

  if (dispute.isPending) return <PageSpinner label="Loading dispute" />;
  if (dispute.isError) {
    const missing = [400, 404].includes(dispute.error.status);
    return (
      <NonIdealState
        className="mrn-not-found"
        icon={missing ? 'search' : 'error'}
        title={missing ? 'Dispute not found' : 'The dispute could not be loaded'}
        description={missing ? 'The link may be wrong.' : dispute.error.message}
        action={<Link to={PATHS.disputes}>Back to disputes</Link>}
      />
    );
  }
  return <DisputeDetail dispute={dispute.data} />;
}

function DisputeDetail({ dispute: d }: { dispute: DisputeDetailView }) {
  const [resolving, setResolving] = useState(false);
  const merchantId = d.merchant_id ?? d.resolution_merchant_id;
  const notes = useApiQuery(
    routes.listMerchantNotes,
    { params: { id: d.merchant_id ?? '' } },
    { select: (a) => a.data, enabled: d.merchant_id !== null },
  );
  const resolved = d.status === 'resolved';

  return (
    <div className="mrn-page">
      <nav className="mrn-small" aria-label="Breadcrumb">
        <Link to={`${PATHS.disputes}?status=${d.status}`}>
          <Icon icon="arrow-left" size={12} /> Disputes · {DISPUTE_STATUS_LABELS[d.status]}
        </Link>
      </nav>
      <header className="mrn-page-header mrn-header-row">
        <div>
          <H2>Dispute: {d.legal_name}</H2>
          <div className="mrn-dispute-actions">
            <Tag intent={STATUS_INTENT[d.status]} large>
              {DISPUTE_STATUS_LABELS[d.status]}
            </Tag>
            <DaysOpenTag days={d.days_open} resolved={resolved} />
            <span className={Classes.TEXT_MUTED}>Received {formatDateTime(d.created_at)}</span>
          </div>
        </div>
        {!resolved && (
          <Button
            intent={Intent.SUCCESS}
            icon="endorsed"
            text="Resolve…"
            large
            onClick={() => setResolving(true)}
          />
        )}
      </header>

      <div className="mrn-dispute-layout">
        <section aria-label="Dispute">
          <Section title="Business owner's dispute" icon="take-action" compact>
            <SectionCard>
              <dl className="mrn-facts">
                <Fact label="EIN/BN">{displayEin(d.fein)}</Fact>
                <Fact label="Legal business name">{d.legal_name}</Fact>
                {d.dba && <Fact label="DBA">{d.dba}</Fact>}
                <Fact label="Location">{cityState(d)}</Fact>
                <Fact label="Submitted by">
                  {d.first_name} {d.last_name}
                </Fact>
                {/* The whole row: an address is one word and must not break mid-way. */}
                <div className="mrn-fact mrn-fact-wide">
                  <dt>E-mail</dt>
                  <dd>
                    <a href={`mailto:${d.email}`}>{d.email}</a>
                  </dd>
                </div>
              </dl>
              <h4 className="mrn-dialog-subtitle">Reason for Dispute</h4>
              <p className="mrn-preserve-lines">{d.reason}</p>
            </SectionCard>
          </Section>

          <Section title="Assignment" icon="person" compact>
            <SectionCard>
              <DisputeAssignment dispute={d} />
            </SectionCard>
          </Section>

          {resolved && <Resolution d={d} />}

          <Section
            title="Internal comments"
            icon="comment"
            compact
            rightElement={
              <Tag minimal round>
                {d.comments.length}
              </Tag>
            }
          >
            <SectionCard>
              <DisputeComments dispute={d} />
            </SectionCard>
          </Section>
        </section>

        <section aria-label="Merchant record">
          {merchantId ? (
            <Card className="mrn-dispute-card" elevation={1}>
              <div className="mrn-header-row">
                <h3>Merchant record</h3>
                <Link to={merchantPath(merchantId)}>
                  Open merchant <Icon icon="share" size={12} />
                </Link>
              </div>
              {!d.merchant_id && (
                <Callout intent={Intent.NONE} icon="archive">
                  The merchant was archived by this dispute's resolution; its history remains below.
                </Callout>
              )}
              <Tabs
                id="dispute-merchant-tabs"
                renderActiveTabPanelOnly
                defaultSelectedTabId={d.merchant_id ? 'notes' : 'history'}
              >
                {d.merchant_id && (
                  <Tab
                    id="notes"
                    title="Notes"
                    panel={
                      notes.isPending ? (
                        <PageSpinner label="Loading notes" />
                      ) : notes.isError ? (
                        <Callout intent={Intent.DANGER} role="alert">
                          {notes.error.message}
                        </Callout>
                      ) : (
                        <NotesList
                          notes={notes.data}
                          showSubmissionSource
                          highlightId={d.resolution_note_id}
                        />
                      )
                    }
                  />
                )}
                <Tab id="history" title="Audit history" panel={<MerchantHistory merchantId={merchantId} />} />
              </Tabs>
            </Card>
          ) : (
            <Card elevation={1}>
              <NonIdealState
                icon="search"
                title="Not in the network"
                description={`No funder has reported a merchant with EIN ${displayEin(d.fein)}. Resolve with “Close without changes” and tell the owner.`}
              />
            </Card>
          )}
        </section>
      </div>

      <ResolveDisputeDialog
        dispute={d}
        notes={notes.data ?? []}
        isOpen={resolving}
        onClose={() => setResolving(false)}
      />
    </div>
  );
}

function Resolution({ d }: { d: DisputeDetailView }) {
  if (!d.resolution) return null;
  return (
    <Section title="Resolution" icon="endorsed" compact>
      <SectionCard>
        <Callout intent={Intent.SUCCESS} title={DISPUTE_RESOLUTION_OUTCOMES[d.resolution]}>
          <p>
            {d.resolved_by ? `By ${d.resolved_by.name}` : 'Resolved'} on {formatDateTime(d.resolved_at)}.
          </p>
          <p className="mrn-secondary">Told to the owner: {DISPUTE_OUTCOME_TEXTS[d.resolution]}</p>
          {d.explanation && <p className="mrn-preserve-lines">“{d.explanation}”</p>}
        </Callout>
      </SectionCard>
    </Section>
  );
}
