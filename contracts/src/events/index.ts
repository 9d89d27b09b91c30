import { z } from 'zod';
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
} as const;
