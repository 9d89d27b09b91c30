import { z } from 'zod';
import { NOTE_CATEGORIES, SUBMISSION_SOURCES } from '../domain/notes.ts';
import { MEMBERSHIP_STATUSES, PLAN_LEVELS } from '../domain/plans.ts';
import { MESSAGE_SEVERITIES } from '../routes/app-settings.ts';

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
  /** Appended by the query side for every search (DESIGN §4), to `searches-{accountId}`. */
  MerchantSearched: z.object({
    accountId: z.string(),
    userId: z.string(),
    source: z.enum(['web', 'api']),
    term: z.string(),
    einSearch: z.boolean(),
    merchantIds: z.array(z.string()),
    hit: z.boolean(),
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
  merchant: (id: string) => `merchant-${id}`,
  ein: (digits: string) => `ein-${digits}`,
  appSettings: () => 'app-settings',
  searches: (accountId: string) => `searches-${accountId}`,
} as const;
