import type { Actor } from '@mrn/platform';
import { describe, expect, it } from 'vitest';
import { specFor } from '../testing.ts';
import { type MerchantDetails, type MerchantEvent, merchantDecider, type NoteContent } from './merchant.ts';

const actor = (over: Partial<Actor> = {}): Actor => ({
  userId: 'u-ann',
  accountId: 'acc-summit',
  sessionId: 's',
  sessionVersion: 0,
  isAdmin: false,
  isDmAdmin: false,
  planLevel: 'PRO',
  mfaPending: false,
  ...over,
});
const ann = actor();
const bob = actor({ userId: 'u-bob' });
const carl = actor({ userId: 'u-carl', accountId: 'acc-harbor' });
const staff = actor({ userId: 'u-staff', accountId: 'acc-platform', isDmAdmin: true, isAdmin: true });
const as = (a: Actor) => specFor(merchantDecider, { now: new Date('2026-11-01'), actor: a });

const details: MerchantDetails = {
  fein: '123456789',
  legalName: 'Sunrise Diner Inc',
  dba: null,
  street1: null,
  street2: null,
  city: 'Tampa',
  state: 'FL',
  businessPhone: null,
  businessStartdate: null,
  industry: null,
};
const slowPay: NoteContent = {
  category: 'Slow Pay',
  note: 'Late',
  submissionSource: 'broker',
  brokerName: 'Acme ISO',
};
const byAnn = { accountId: 'acc-summit', userId: 'u-ann', proxiedCreator: null };
const added: MerchantEvent[] = [
  { type: 'MerchantAdded', data: { merchantId: 'm1', ...details, accountId: 'acc-summit', userId: 'u-ann' } },
  { type: 'NoteAdded', data: { merchantId: 'm1', noteId: 'n1', ...slowPay, ...byAnn } },
];
const archived: MerchantEvent = {
  type: 'MerchantArchived',
  data: { merchantId: 'm1', fein: '123456789', reason: 'dup' },
};
const inCategory = (category: NoteContent['category']): MerchantEvent => ({
  type: 'NoteUpdated',
  data: { merchantId: 'm1', noteId: 'n1', ...slowPay, category },
});

describe('merchant decider: adding', () => {
  it('adds the merchant with its first note', () => {
    as(ann)
      .given([])
      .when({ type: 'AddMerchant', merchantId: 'm1', details, noteId: 'n1', note: slowPay, by: byAnn })
      .thenEvents(added);
  });
  it('records nothing when the same merchant id is added again (a retried submission)', () => {
    as(ann)
      .given(added)
      .when({ type: 'AddMerchant', merchantId: 'm1', details, noteId: 'n1', note: slowPay, by: byAnn })
      .thenEvents([]);
  });
  it('lets anyone add a Default Satisfied note (only editing into it is restricted)', () => {
    as(ann)
      .given([])
      .when({
        type: 'AddMerchant',
        merchantId: 'm1',
        details,
        noteId: 'n1',
        note: { ...slowPay, category: 'Default Satisfied' },
        by: byAnn,
      })
      .thenEvents([
        expect.objectContaining({ type: 'MerchantAdded' }),
        expect.objectContaining({
          type: 'NoteAdded',
          data: expect.objectContaining({ category: 'Default Satisfied' }),
        }),
      ]);
  });

  it('refuses Merchant Dispute to non-platform-admins', () => {
    for (const category of ['Merchant Dispute'] as const) {
      as(ann)
        .given([])
        .when({
          type: 'AddMerchant',
          merchantId: 'm1',
          details,
          noteId: 'n1',
          note: { ...slowPay, category },
          by: byAnn,
        })
        .thenRefuses('forbidden', category);
    }
  });
  it('lets a platform admin add on behalf of another account, and nobody else', () => {
    const forHarbor = { accountId: 'acc-harbor', userId: 'u-staff', proxiedCreator: 'acc-harbor' };
    as(staff)
      .given([])
      .when({ type: 'AddMerchant', merchantId: 'm1', details, noteId: 'n1', note: slowPay, by: forHarbor })
      .thenEvents([
        {
          type: 'MerchantAdded',
          data: { merchantId: 'm1', ...details, accountId: 'acc-harbor', userId: 'u-staff' },
        },
        { type: 'NoteAdded', data: { merchantId: 'm1', noteId: 'n1', ...slowPay, ...forHarbor } },
      ]);
    as(ann)
      .given([])
      .when({
        type: 'AddMerchant',
        merchantId: 'm1',
        details,
        noteId: 'n1',
        note: slowPay,
        by: { ...forHarbor, userId: 'u-ann' },
      })
      .thenRefuses('forbidden', 'on behalf');
  });
});

describe('merchant decider: merchant changes', () => {
  it('updates details for the adding funder or a platform admin only, and records nothing when unchanged', () => {
    const changed = { ...details, city: 'Miami' };
    as(bob)
      .given(added)
      .when({ type: 'UpdateMerchant', details: changed })
      .thenEvents([{ type: 'MerchantUpdated', data: { merchantId: 'm1', ...changed } }]);
    as(staff)
      .given(added)
      .when({ type: 'UpdateMerchant', details: changed })
      .thenEvents([{ type: 'MerchantUpdated', data: { merchantId: 'm1', ...changed } }]);
    as(carl).given(added).when({ type: 'UpdateMerchant', details: changed }).thenRefuses('forbidden');
    as(ann).given(added).when({ type: 'UpdateMerchant', details }).thenEvents([]);
  });
  it('archives with a reason for platform admins only; an archived merchant takes no more notes', () => {
    as(staff).given(added).when({ type: 'ArchiveMerchant', reason: 'dup' }).thenEvents([archived]);
    as(ann).given(added).when({ type: 'ArchiveMerchant', reason: 'dup' }).thenRefuses('forbidden');
    as(ann)
      .given([...added, archived])
      .when({ type: 'AddNote', noteId: 'n2', note: slowPay, by: byAnn })
      .thenRefuses('gone');
  });
  it('refuses changes to a merchant that does not exist', () => {
    as(ann)
      .given([])
      .when({ type: 'AddNote', noteId: 'n2', note: slowPay, by: byAnn })
      .thenRefuses('not_found');
  });
});

describe('merchant decider: notes', () => {
  it('adds a note; the same note id again records nothing', () => {
    as(carl)
      .given(added)
      .when({
        type: 'AddNote',
        noteId: 'n2',
        note: slowPay,
        by: { accountId: 'acc-harbor', userId: 'u-carl', proxiedCreator: null },
      })
      .thenEvents([
        {
          type: 'NoteAdded',
          data: {
            merchantId: 'm1',
            noteId: 'n2',
            ...slowPay,
            accountId: 'acc-harbor',
            userId: 'u-carl',
            proxiedCreator: null,
          },
        },
      ]);
    as(ann).given(added).when({ type: 'AddNote', noteId: 'n1', note: slowPay, by: byAnn }).thenEvents([]);
  });
  it('lets the creator or a platform admin edit, nobody else', () => {
    const edit = { type: 'UpdateNote' as const, noteId: 'n1', note: { ...slowPay, note: 'Very late' } };
    as(ann)
      .given(added)
      .when(edit)
      .thenEvents([{ type: 'NoteUpdated', data: { merchantId: 'm1', noteId: 'n1', ...edit.note } }]);
    as(staff)
      .given(added)
      .when(edit)
      .thenEvents([{ type: 'NoteUpdated', data: { merchantId: 'm1', noteId: 'n1', ...edit.note } }]);
    as(bob).given(added).when(edit).thenRefuses('forbidden', 'Only the user who added this note');
  });
  it('refuses a non-admin the Default Satisfied category when editing', () => {
    as(ann)
      .given(added)
      .when({ type: 'UpdateNote', noteId: 'n1', note: { ...slowPay, category: 'Default Satisfied' } })
      .thenRefuses('forbidden');
  });
  it('locks notes in Default Satisfied, Split Payer and Covid-19 Hardship against non-admin changes', () => {
    for (const category of ['Default Satisfied', 'Split Payer', 'Covid-19 Hardship'] as const) {
      as(ann)
        .given([...added, inCategory(category)])
        .when({ type: 'UpdateNote', noteId: 'n1', note: slowPay })
        .thenRefuses('forbidden', category);
      as(staff)
        .given([...added, inCategory(category)])
        .when({ type: 'UpdateNote', noteId: 'n1', note: slowPay })
        .thenEvents([{ type: 'NoteUpdated', data: { merchantId: 'm1', noteId: 'n1', ...slowPay } }]);
    }
  });
  it('takes one deletion request from a member of the authoring funder, not from others or platform admins', () => {
    const request = { type: 'RequestNoteDeletion' as const, noteId: 'n1', reason: 'Paid off' };
    const requested: MerchantEvent = {
      type: 'NoteDeletionRequested',
      data: { merchantId: 'm1', noteId: 'n1', reason: 'Paid off', accountId: 'acc-summit', userId: 'u-bob' },
    };
    as(bob).given(added).when(request).thenEvents([requested]);
    as(carl).given(added).when(request).thenRefuses('forbidden');
    as(staff).given(added).when(request).thenRefuses('forbidden');
    as(bob)
      .given([...added, requested])
      .when(request)
      .thenRefuses('conflict');
  });
  it('archives a note for platform admins only, once', () => {
    const archivedNote: MerchantEvent = { type: 'NoteArchived', data: { merchantId: 'm1', noteId: 'n1' } };
    as(staff).given(added).when({ type: 'ArchiveNote', noteId: 'n1' }).thenEvents([archivedNote]);
    as(ann).given(added).when({ type: 'ArchiveNote', noteId: 'n1' }).thenRefuses('forbidden');
    as(staff)
      .given([...added, archivedNote])
      .when({ type: 'ArchiveNote', noteId: 'n1' })
      .thenEvents([]);
    as(ann)
      .given([...added, archivedNote])
      .when({ type: 'UpdateNote', noteId: 'n1', note: slowPay })
      .thenRefuses('not_found');
  });
});
