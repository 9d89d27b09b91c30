import { describe, expect, it } from 'vitest';
import { ACTORS, specFor } from '../testing.ts';
import { type DisputeCommand, type DisputeEvent, disputeDecider } from './dispute.ts';
import { receivedMail, resolvedMail } from './dispute-mail.ts';

const now = new Date('2026-11-01T12:00:00Z');
const staff = specFor(disputeDecider, { now, actor: { ...ACTORS.staff, userId: 'u-staff' } });
const funderAdmin = specFor(disputeDecider, { now, actor: ACTORS.ownAdmin });
const anonymous = specFor(disputeDecider, { now });

const submittedData = {
  disputeId: 'd1',
  firstName: 'Rosa',
  lastName: 'Diaz',
  email: 'rosa@sunrise.example',
  fein: '123456789',
  legalName: 'Sunrise Diner Inc',
  dba: null,
  city: 'Tampa',
  state: 'FL',
  reason: 'The default was paid in full.',
};
const submitted: DisputeEvent = { type: 'DisputeSubmitted', data: submittedData };
const assigned = (assigneeUserId: string, assigneeName: string): DisputeEvent => ({
  type: 'DisputeAssigned',
  data: { disputeId: 'd1', assigneeUserId, assigneeName },
});
const resolved: DisputeEvent = {
  type: 'DisputeResolved',
  data: {
    disputeId: 'd1',
    resolution: 'rejected',
    explanation: 'The report is accurate.',
    merchantId: null,
    noteId: null,
    resolvedByUserId: 'u-staff',
  },
};
const resolve = (
  over: Partial<Extract<DisputeCommand, { type: 'ResolveDispute' }>> = {},
): DisputeCommand => ({
  type: 'ResolveDispute',
  resolution: 'rejected',
  explanation: 'The report is accurate.',
  merchantId: null,
  noteId: null,
  ...over,
});

describe('dispute decider: submitting', () => {
  it('records a submission once; the same id again (a double submit) records nothing', () => {
    anonymous
      .given([])
      .when({ type: 'SubmitDispute', ...submittedData })
      .thenEvents([submitted]);
    anonymous
      .given([submitted])
      .when({ type: 'SubmitDispute', ...submittedData })
      .thenEvents([]);
  });
});

describe('dispute decider: assignment and review', () => {
  it('assigns a new dispute (which takes it into review) and reassigns it', () => {
    staff
      .given([submitted])
      .when({ type: 'AssignDispute', assigneeUserId: 'u-ann', assigneeName: 'Ann Lee' })
      .thenEvents([assigned('u-ann', 'Ann Lee')]);
    staff
      .given([submitted, assigned('u-ann', 'Ann Lee')])
      .when({ type: 'AssignDispute', assigneeUserId: 'u-bob', assigneeName: 'Bob Ray' })
      .thenEvents([assigned('u-bob', 'Bob Ray')]);
    const state = [submitted, assigned('u-ann', 'Ann Lee')].reduce(
      disputeDecider.evolve,
      disputeDecider.initialState(),
    );
    expect(state.status).toBe('in_review');
  });
  it('records nothing when assigned again to the same person', () => {
    staff
      .given([submitted, assigned('u-ann', 'Ann Lee')])
      .when({ type: 'AssignDispute', assigneeUserId: 'u-ann', assigneeName: 'Ann Lee' })
      .thenEvents([]);
  });
  it('starts review of a new dispute once', () => {
    staff
      .given([submitted])
      .when({ type: 'StartReview' })
      .thenEvents([{ type: 'DisputeReviewStarted', data: { disputeId: 'd1' } }]);
    staff
      .given([submitted, assigned('u-ann', 'Ann Lee')])
      .when({ type: 'StartReview' })
      .thenEvents([]);
  });
  it('refuses work on a resolved dispute (409) and on one that does not exist (404)', () => {
    staff
      .given([submitted, resolved])
      .when({ type: 'AssignDispute', assigneeUserId: 'u', assigneeName: 'U' })
      .thenRefuses('conflict', 'already been resolved');
    staff.given([submitted, resolved]).when({ type: 'StartReview' }).thenRefuses('conflict');
    staff.given([]).when({ type: 'StartReview' }).thenRefuses('not_found', 'Dispute not found.');
  });
  it('refuses anyone but platform administrators', () => {
    funderAdmin.given([submitted]).when({ type: 'StartReview' }).thenRefuses('forbidden');
    funderAdmin.given([submitted]).when(resolve()).thenRefuses('forbidden');
    funderAdmin
      .given([submitted])
      .when({ type: 'AddComment', commentId: 'c', authorName: 'x', text: 'x' })
      .thenRefuses('forbidden');
  });
});

describe('dispute decider: comments', () => {
  const comment: DisputeCommand = {
    type: 'AddComment',
    commentId: 'c1',
    authorName: 'Ann Lee',
    text: 'Called the funder.',
  };
  const added: DisputeEvent = {
    type: 'DisputeCommentAdded',
    data: {
      disputeId: 'd1',
      commentId: 'c1',
      authorUserId: 'u-staff',
      authorName: 'Ann Lee',
      text: 'Called the funder.',
    },
  };
  it('adds an internal comment by the caller, once per comment id', () => {
    staff.given([submitted]).when(comment).thenEvents([added]);
    staff.given([submitted, added]).when(comment).thenEvents([]);
  });
  it('allows a follow-up comment after resolution', () => {
    staff.given([submitted, resolved]).when(comment).thenEvents([added]);
  });
  it('refuses an empty comment, naming the field', () => {
    staff
      .given([submitted])
      .when({ ...comment, text: '  ' })
      .thenRefuses('invalid', /^comment\.text: is required/);
  });
});

describe('dispute decider: resolving', () => {
  it('resolves with an explanation; a second resolution is refused (409)', () => {
    staff
      .given([submitted, assigned('u-ann', 'Ann Lee')])
      .when(resolve())
      .thenEvents([resolved]);
    staff.given([submitted, resolved]).when(resolve()).thenRefuses('conflict', 'already been resolved');
  });
  it('may resolve a dispute straight from new (e.g. a plain duplicate)', () => {
    staff.given([submitted]).when(resolve()).thenEvents([resolved]);
  });
  it('requires an explanation for rejected and no_action', () => {
    staff
      .given([submitted])
      .when(resolve({ explanation: null }))
      .thenRefuses('invalid', /^explanation:/);
    staff
      .given([submitted])
      .when(resolve({ resolution: 'no_action', explanation: ' ' }))
      .thenRefuses('invalid', /^explanation:/);
  });
  it('records the merchant and note a record-changing resolution touched', () => {
    staff
      .given([submitted])
      .when(resolve({ resolution: 'note_archived', explanation: null, merchantId: 'm1', noteId: 'n1' }))
      .thenEvents([
        {
          type: 'DisputeResolved',
          data: {
            disputeId: 'd1',
            resolution: 'note_archived',
            explanation: null,
            merchantId: 'm1',
            noteId: 'n1',
            resolvedByUserId: 'u-staff',
          },
        },
      ]);
    staff
      .given([submitted])
      .when(resolve({ resolution: 'merchant_archived', explanation: null, merchantId: 'm1', noteId: 'n1' }))
      .thenEvents([
        expect.objectContaining({ data: expect.objectContaining({ merchantId: 'm1', noteId: null }) }),
      ]);
  });
  it('requires the merchant (and note) for record-changing resolutions', () => {
    staff
      .given([submitted])
      .when(resolve({ resolution: 'merchant_archived', explanation: null }))
      .thenRefuses('invalid', /^merchant_id:/);
    staff
      .given([submitted])
      .when(resolve({ resolution: 'dispute_note_added', merchantId: 'm1' }))
      .thenRefuses('invalid', /^note_id:/);
  });
});

describe('dispute e-mails', () => {
  const addressee = { ...submittedData };
  it('acknowledges receipt with the reference and the 30-day aim', () => {
    const mail = receivedMail(addressee, 'Merchant Risk Network');
    expect(mail.to).toBe('rosa@sunrise.example');
    expect(mail.subject).toBe('We received your dispute about Sunrise Diner Inc');
    expect(mail.text).toContain('Dear Rosa Diaz,');
    expect(mail.text).toContain('EIN 12-3456789');
    expect(mail.text).toContain('reference is d1');
    expect(mail.text).toContain('within 30 days');
  });
  it('states the outcome in plain words with the explanation for the owner', () => {
    const mail = resolvedMail(
      addressee,
      { resolution: 'note_archived', explanation: 'Thanks for the receipt.' },
      'MRN',
    );
    expect(mail.subject).toBe('Your dispute about Sunrise Diner Inc has been resolved');
    expect(mail.text).toContain('Outcome: We have removed the disputed report from the business record.');
    expect(mail.text).toContain('Thanks for the receipt.');
    expect(resolvedMail(addressee, { resolution: 'rejected', explanation: null }, 'MRN').text).toContain(
      'the record remains as reported',
    );
  });
});
