import { DISPUTE_RESOLUTIONS } from '../domain/disputes.ts';
import { NOTE_CATEGORIES, SUBMISSION_SOURCES } from '../domain/notes.ts';
import { MEMBERSHIP_STATUSES, PLAN_LEVELS } from '../domain/plan-levels.ts';
import { MESSAGE_SEVERITIES } from '../routes/app-settings.ts';
import { z } from '../zod.ts';

/**
 * The event catalogue: every fact the system records, with the shape of its data. Event names are
 * past-tense facts; streams are named in DESIGN §3.
 */
export const eventSchemas = {
  AccountOpened: z.object({
    accountId: z.string(),
    name: z.string(),
    website: z.string().nullable(),
    primaryContactEmail: z.string(),
    planLevel: z.enum(PLAN_LEVELS),
    membershipStatus: z.enum(MEMBERSHIP_STATUSES),
    /** The product staff's own account, home of the platform administrators. */
    isPlatform: z.boolean(),
  }),
  AccountUpdated: z.object({
    accountId: z.string(),
    name: z.string(),
    website: z.string().nullable(),
    primaryContactEmail: z.string(),
    merchantSubscriptionEnabled: z.boolean(),
    merchantSubscriptionNotificationEmail: z.string().nullable(),
    merchantSubscriptionNotificationWebhook: z.string().nullable(),
    /**
     * "Watch merchants we search": every merchant the account identifies by a search is watched for
     * `watchSearchedMonths` months. Optional because events written before the setting existed lack
     * them: absent reads as off and 12 months (`watchSettingsOf`), wherever the event is folded.
     */
    watchSearchedMerchants: z.boolean().optional(),
    watchSearchedMonths: z.number().int().min(1).max(24).optional(),
    /**
     * "Being shopped" alerts and the webhook endpoint's event types (issue 24). Optional for the same
     * reason: absent reads as a threshold of 3 and every type (`alertSettingsOf`).
     */
    shoppedAlertThreshold: z.number().int().min(1).max(20).nullable().optional(),
    webhookEventTypes: z.array(z.string()).nullable().optional(),
  }),
  /**
   * The funder's admins saved the settings with the webhook address it already had: nothing changed,
   * but a save is what the "endpoint disabled" e-mail asks for, so the dispatcher resumes delivering to it.
   */
  AccountWebhookEndpointSaved: z.object({ accountId: z.string(), url: z.string() }),
  AccountArchived: z.object({ accountId: z.string() }),
  AccountApiAccessGranted: z.object({ accountId: z.string() }),
  AccountApiAccessRevoked: z.object({ accountId: z.string() }),
  AccountTrialStarted: z.object({ accountId: z.string() }),
  AccountTrialCanceled: z.object({ accountId: z.string() }),
  AccountMfaRequiredChanged: z.object({ accountId: z.string(), mfaRequired: z.boolean() }),
  /** Asked for (Recalculate): the contribution projector recomputes the account's figures as of it. */
  AccountContributionRecalculated: z.object({ accountId: z.string() }),
  /** The 90-day figure fell below the minimum: searching stays allowed until `expiresAt` (14 days). */
  AccountContributionWarningIssued: z.object({
    accountId: z.string(),
    percent: z.number(),
    issuedAt: z.string(),
    expiresAt: z.string(),
  }),
  /**
   * Still below the minimum with the warning expiring within 3 days: the funder's admins are reminded,
   * once per warning (the warning's own dates say which one).
   */
  AccountContributionWarningReminded: z.object({
    accountId: z.string(),
    percent: z.number(),
    issuedAt: z.string(),
    expiresAt: z.string(),
  }),
  /** Still below the minimum when the warning expired: locked from search. */
  AccountContributionLocked: z.object({ accountId: z.string(), percent: z.number() }),
  /** Back at the minimum: the warning (and any lock) is lifted. */
  AccountContributionRestored: z.object({ accountId: z.string(), percent: z.number() }),
  /**
   * A paid membership began (the first month charged) or started again after a cancellation. Plan and
   * membership change only through these billing events (DESIGN §4), each from the command that
   * caused it or from a verified Stripe webhook.
   */
  AccountMembershipStarted: z.object({
    accountId: z.string(),
    planLevel: z.enum(PLAN_LEVELS),
    stripeCustomerId: z.string(),
    stripeSubscriptionId: z.string(),
    currentPeriodEnd: z.string().nullable(),
  }),
  AccountPlanChanged: z.object({
    accountId: z.string(),
    planLevel: z.enum(PLAN_LEVELS),
    /**
     * The provider's change this stands for: the subscription's plan version (its `mrn_plan_version`
     * metadata), so the request that made the change and Stripe's webhook of it record it once, and an
     * older event arriving late changes nothing. Absent on events written before it was kept.
     */
    planVersion: z.number().int().min(0).optional(),
    /** `created` of the Stripe event it was applied from; null when the request that made it recorded it. */
    providerChangedAt: z.string().nullable().optional(),
  }),
  AccountMembershipCanceled: z.object({
    accountId: z.string(),
    /**
     * requested: Cancel Membership. unpaid: the card payment provider stopped retrying a failed
     * renewal and keeps the subscription unpaid (Stripe's "mark the subscription as unpaid" after the
     * last retry): paying its open invoice brings the subscription and the membership back. stripe:
     * the provider ended the subscription (deleted, or its first payment expired): it cannot come back.
     */
    reason: z.enum(['requested', 'stripe', 'unpaid']),
    /** The provider ended it while a renewal payment was failing (absent on older events: false). */
    afterFailedPayment: z.boolean().optional(),
    /** `created` of the provider's event that ended it (its clock's time); null or absent for a request. */
    providerEndedAt: z.string().nullable().optional(),
  }),
  /**
   * The membership the provider suspended for an unpaid renewal (`reason: 'unpaid'`) is paid again: its
   * open invoice was paid and the same subscription is active again.
   */
  AccountMembershipReinstated: z.object({
    accountId: z.string(),
    planLevel: z.enum(PLAN_LEVELS),
    currentPeriodEnd: z.string().nullable(),
  }),
  AccountRenewalPaid: z.object({
    accountId: z.string(),
    invoiceId: z.string(),
    currentPeriodEnd: z.string().nullable(),
    /** When Stripe created the invoice: a late, older event never overrides a newer one. */
    invoiceCreatedAt: z.string(),
  }),
  AccountRenewalFailed: z.object({
    accountId: z.string(),
    invoiceId: z.string(),
    nextPaymentAttempt: z.string().nullable(),
    invoiceCreatedAt: z.string(),
  }),
  /** `stripe-event-{id}`: a Stripe webhook event applied, so a redelivery is applied once only. */
  StripeEventApplied: z.object({ eventId: z.string(), type: z.string() }),
  /** A platform administrator lets the account search whatever its contribution. */
  AccountContributionOverrideChanged: z.object({ accountId: z.string(), override: z.boolean() }),
  UserUpdated: z.object({
    userId: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
  }),
  UserArchived: z.object({ userId: z.string() }),
  UserRestored: z.object({ userId: z.string() }),
  UserAdminChanged: z.object({ userId: z.string(), isAdmin: z.boolean() }),
  UserMfaRequiredChanged: z.object({ userId: z.string(), mfaRequired: z.boolean() }),
  /** The key itself is never recorded, only its hash. */
  UserApiAccessGranted: z.object({
    userId: z.string(),
    authenticationToken: z.string(),
    keyHash: z.string(),
  }),
  UserApiKeyRegenerated: z.object({ userId: z.string(), keyHash: z.string() }),
  UserApiAccessRevoked: z.object({ userId: z.string() }),
  UserMfaEnabled: z.object({ userId: z.string(), secret: z.string() }),
  UserMfaReset: z.object({ userId: z.string() }),
  UserDeviceRemembered: z.object({
    userId: z.string(),
    tokenHash: z.string(),
    ip: z.string().nullable(),
    device: z.string().nullable(),
    expiresAt: z.string(),
  }),
  UserDeviceForgotten: z.object({ userId: z.string() }),
  UserPasswordChanged: z.object({
    userId: z.string(),
    passwordHash: z.string(),
    via: z.enum(['profile', 'admin', 'reset']),
  }),
  UserPasswordResetRequested: z.object({ userId: z.string(), tokenHash: z.string(), expiresAt: z.string() }),
  UserAgreedToTerms: z.object({ userId: z.string(), agreedAt: z.string() }),
  DisputeSubmitted: z.object({
    disputeId: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    fein: z.string(),
    legalName: z.string(),
    dba: z.string().nullable(),
    city: z.string(),
    state: z.string(),
    reason: z.string(),
  }),
  // Dispute work (issue 13), on `dispute-{id}`: new → in review (assigned or review started) → resolved.
  /** Also moves a new dispute into review; reassigning records who has it now. */
  DisputeAssigned: z.object({
    disputeId: z.string(),
    assigneeUserId: z.string(),
    /** As the assignee was named then: the audit trail reads without the user's stream. */
    assigneeName: z.string(),
  }),
  DisputeReviewStarted: z.object({ disputeId: z.string() }),
  /** An internal comment of platform administrators; never shown or mailed to the business owner. */
  DisputeCommentAdded: z.object({
    disputeId: z.string(),
    commentId: z.string(),
    authorUserId: z.string(),
    authorName: z.string(),
    text: z.string(),
  }),
  /**
   * The outcome. `merchantId`/`noteId` name what the resolution changed (the Merchant Dispute note added,
   * the note archived, the merchant archived), written in the same atomic append as that change.
   * `explanation` is the message to the business owner (required for `rejected` and `no_action`).
   */
  DisputeResolved: z.object({
    disputeId: z.string(),
    resolution: z.enum(DISPUTE_RESOLUTIONS),
    explanation: z.string().nullable(),
    merchantId: z.string().nullable(),
    noteId: z.string().nullable(),
    resolvedByUserId: z.string(),
  }),
  UserRegistered: z.object({
    userId: z.string(),
    accountId: z.string(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    isAdmin: z.boolean(),
    isDmAdmin: z.boolean(),
    passwordHash: z.string(),
    agreedToTermsAt: z.string().nullable(),
  }),
  UserSignedIn: z.object({ userId: z.string(), sessionId: z.string() }),
  UserSignedOut: z.object({ userId: z.string(), sessionId: z.string() }),
  UserSessionsRevoked: z.object({ userId: z.string(), sessionVersion: z.number().int(), reason: z.string() }),
  /** `user-email-{email}` reservation: one user per e-mail address. */
  EmailReserved: z.object({ email: z.string(), userId: z.string() }),
  EmailReleased: z.object({ email: z.string(), userId: z.string() }),
  /**
   * `api-token-{sha256 of the token}`: which user an API authentication token belongs to, written in the
   * same append as the grant, so the credentials work the moment they are shown (the token stays out of
   * the stream name and the log).
   */
  ApiTokenAssigned: z.object({ userId: z.string() }),
  /**
   * `api-token-backfill`: every token still current that was granted before tokens were reserved has its
   * `api-token-{sha256}` now (command-api reserves them from the log at start, once): later starts skip
   * the scan. `found`: how many current tokens the scan found, reserved before or by it.
   */
  ApiTokensBackfilled: z.object({ found: z.number().int().min(0) }),
  /** `ein-{digits}` reservation: one live merchant per EIN. */
  EinReserved: z.object({ fein: z.string(), merchantId: z.string() }),
  EinReleased: z.object({ fein: z.string(), merchantId: z.string() }),
  MerchantAdded: z.object({
    merchantId: z.string(),
    fein: z.string(),
    legalName: z.string(),
    dba: z.string().nullable(),
    street1: z.string().nullable(),
    street2: z.string().nullable(),
    city: z.string(),
    state: z.string(),
    businessPhone: z.string().nullable(),
    businessStartdate: z.string().nullable(),
    industry: z.string().nullable(),
    /** The account the record is attributed to (the proxied account when added on its behalf). */
    accountId: z.string(),
    userId: z.string(),
  }),
  MerchantUpdated: z.object({
    merchantId: z.string(),
    fein: z.string(),
    legalName: z.string(),
    dba: z.string().nullable(),
    street1: z.string().nullable(),
    street2: z.string().nullable(),
    city: z.string(),
    state: z.string(),
    businessPhone: z.string().nullable(),
    businessStartdate: z.string().nullable(),
    industry: z.string().nullable(),
  }),
  MerchantArchived: z.object({ merchantId: z.string(), fein: z.string(), reason: z.string() }),
  NoteAdded: z.object({
    merchantId: z.string(),
    noteId: z.string(),
    category: z.enum(NOTE_CATEGORIES),
    note: z.string(),
    submissionSource: z.enum(SUBMISSION_SOURCES).nullable(),
    brokerName: z.string().nullable(),
    accountId: z.string(),
    userId: z.string(),
    /** Set when a platform administrator added it on behalf of `accountId`. */
    proxiedCreator: z.string().nullable(),
  }),
  NoteUpdated: z.object({
    merchantId: z.string(),
    noteId: z.string(),
    category: z.enum(NOTE_CATEGORIES),
    note: z.string(),
    submissionSource: z.enum(SUBMISSION_SOURCES).nullable(),
    brokerName: z.string().nullable(),
  }),
  NoteDeletionRequested: z.object({
    merchantId: z.string(),
    noteId: z.string(),
    reason: z.string(),
    accountId: z.string(),
    userId: z.string(),
  }),
  NoteArchived: z.object({ merchantId: z.string(), noteId: z.string() }),
  /**
   * `note-{id}`: which merchant a note belongs to. Note commands arrive with the note's id only; this
   * stream answers from the event store itself, with no read model that may lag behind a fresh note.
   */
  NoteRegistered: z.object({ noteId: z.string(), merchantId: z.string() }),
  /** Appended by the query side for every search (DESIGN §4), to `searches-{accountId}`. */
  MerchantSearched: z.object({
    accountId: z.string(),
    userId: z.string(),
    source: z.enum(['web', 'api']),
    term: z.string(),
    einSearch: z.boolean(),
    merchantIds: z.array(z.string()),
    hit: z.boolean(),
    /**
     * The category of each merchant found (its latest note's), as the searcher saw it: analytics count
     * hits by category as of the search. Absent on searches recorded before it was kept.
     */
    categories: z.array(z.string().nullable()).optional(),
    /**
     * Searched by a platform administrator: run for the network, not by a funder underwriting, so it
     * is left out of inquiry velocity (issue 24). Absent on searches recorded before it was kept.
     */
    platformAdmin: z.boolean().optional(),
  }),
  /**
   * A new UTC day began, to `contribution-clock`: contribution windows slide with time, not only with
   * adds and searches, and as an event the slide replays exactly as it happened (DESIGN §4).
   */
  ContributionDayStarted: z.object({ day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
  /**
   * `subscriptions-{accountId}`: EINs the account now watches (only those it did not watch yet). An EIN
   * may be watched before any funder reported it. An import writes its EINs in large batches.
   * Source `search` is a watch made by the "watch merchants we search" setting: it lasts until
   * `watchUntil`, and a later search of the EIN records it again with a later `watchUntil`. A person
   * subscribing an EIN that is only watched until a date records it again without one: watched for good.
   */
  MerchantSubscriptionsAdded: z.object({
    accountId: z.string(),
    feins: z.array(z.string()),
    source: z.enum(['web', 'import', 'api', 'search']),
    watchUntil: z.iso.datetime().optional(),
  }),
  /** `reason` absent: a person unsubscribed; `expired`: a search watch reached its `watchUntil`. */
  MerchantSubscriptionsRemoved: z.object({
    accountId: z.string(),
    feins: z.array(z.string()),
    reason: z.enum(['expired']).optional(),
  }),
  /** A CSV of EINs uploaded for import (the bytes are kept by command-api's `direct_uploads`). */
  SubscriptionImportQueued: z.object({
    accountId: z.string(),
    importId: z.string(),
    fileName: z.string(),
    fileSize: z.number().int(),
  }),
  SubscriptionImportStarted: z.object({ accountId: z.string(), importId: z.string() }),
  SubscriptionImportFinished: z.object({
    accountId: z.string(),
    importId: z.string(),
    processed: z.number().int(),
    imported: z.number().int(),
    skipped: z.number().int(),
    errors: z.number().int(),
  }),
  SubscriptionImportFailed: z.object({ accountId: z.string(), importId: z.string(), reason: z.string() }),
  /**
   * `screening-{id}` (issue 32): a portfolio screening asked for, with the EINs it screens (each once,
   * with the row of the file it came from) and the rows it does not, each with its problem. The query
   * side screens it in the background and keeps the report.
   */
  ScreeningRequested: z.object({
    screeningId: z.string(),
    accountId: z.string(),
    userId: z.string(),
    source: z.enum(['csv', 'subscriptions', 'api']),
    fileName: z.string().nullable(),
    /** Each EIN to screen and its row in the file (for the watched EINs: their order, from 1). */
    rows: z.array(z.object({ row: z.number().int(), input: z.string(), fein: z.string() })),
    rejected: z.array(z.object({ row: z.number().int(), input: z.string(), problem: z.string() })),
  }),
  /**
   * `screening-allowance-{accountId}-{day}`: EINs the account's screenings took of the day's allowance
   * (UTC day), appended with the ScreeningRequested in one atomic write.
   */
  ScreeningAllowanceUsed: z.object({
    accountId: z.string(),
    day: z.string(),
    screeningId: z.string(),
    eins: z.number().int(),
  }),
  AppSettingsChanged: z.object({
    dashboardMessageEnabled: z.boolean(),
    dashboardMessageSeverity: z.enum(MESSAGE_SEVERITIES),
    dashboardMessageTitle: z.string().nullable(),
    dashboardMessage: z.string().nullable(),
  }),
} as const;

export type EventSchemas = typeof eventSchemas;
export type EventType = keyof EventSchemas;
export type EventData<T extends EventType> = z.infer<EventSchemas[T]>;
/** A domain event as deciders produce it: type and data. */
export type DomainEvent = { [T in EventType]: { type: T; data: EventData<T> } }[EventType];
export type EventOf<T extends EventType> = Extract<DomainEvent, { type: T }>;

export const streams = {
  account: (id: string) => `account-${id}`,
  user: (id: string) => `user-${id}`,
  userEmail: (email: string) => `user-email-${email.trim().toLowerCase()}`,
  /** Keyed by the SHA-256 (hex) of an API authentication token, never the token itself. */
  apiToken: (tokenSha256: string) => `api-token-${tokenSha256}`,
  apiTokenBackfill: () => 'api-token-backfill',
  merchant: (id: string) => `merchant-${id}`,
  note: (id: string) => `note-${id}`,
  ein: (digits: string) => `ein-${digits}`,
  appSettings: () => 'app-settings',
  searches: (accountId: string) => `searches-${accountId}`,
  subscriptions: (accountId: string) => `subscriptions-${accountId}`,
  dispute: (id: string) => `dispute-${id}`,
  contributionClock: () => 'contribution-clock',
  stripeEvent: (id: string) => `stripe-event-${id}`,
  screening: (id: string) => `screening-${id}`,
  screeningAllowance: (accountId: string, day: string) => `screening-allowance-${accountId}-${day}`,
} as const;
