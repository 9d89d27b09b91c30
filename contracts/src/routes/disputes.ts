import { STATES } from '../domain/us-states.ts';
import { dataEnvelope, Pagination } from '../http/envelope.ts';
import { email, optionalText, requiredText } from '../http/fields.ts';
import { route } from '../http/route.ts';
import { z } from '../zod.ts';
import { einField } from './merchants.ts';

export const DISPUTE_SUBMITTED =
  'Your dispute has been submitted. We will review it and contact you by e-mail.';

export const DisputeFields = z.object(
  {
    first_name: requiredText(64),
    last_name: requiredText(64),
    email: email(64),
    fein: einField(),
    legal_name: requiredText(200),
    dba: optionalText(200),
    city: requiredText(100),
    state: z.enum(STATES, { error: 'is required' }),
    reason: requiredText(5000),
  },
  { error: 'is required' },
);

export const DisputeView = z.object({
  id: z.string(),
  resource_id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  fein: z.string(),
  legal_name: z.string(),
  dba: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  reason: z.string(),
  created_at: z.string(),
  merchant_id: z.string().nullable(),
});

export const createDispute = route({
  method: 'POST',
  path: '/api/disputes',
  service: 'command',
  access: 'anonymous',
  body: z.object({ dispute: DisputeFields }),
  response: z.object({
    data: z.object({ data: z.object({ resource_id: z.string() }) }),
    position: z.string().optional(),
  }),
  action: 'create dispute',
});

export const listDisputes = route({
  method: 'GET',
  path: '/api/disputes',
  service: 'query',
  access: 'platform_admin',
  query: z.object({
    page: z.coerce.number({ error: 'must be a whole number' }).int().min(1).default(1),
    per_page: z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(100).default(25),
  }),
  response: z.object({ data: z.array(DisputeView), pagination: Pagination }),
  action: 'retrieve disputes',
});

export const MailView = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  received_at: z.string(),
});

export const listDevMailbox = route({
  method: 'GET',
  path: '/api/dev_mailbox',
  service: 'query',
  access: 'platform_admin',
  response: dataEnvelope(z.array(MailView)),
  action: 'retrieve mail',
});
