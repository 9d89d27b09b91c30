import { BROKER_KEY_MAX, BROKERS_PER_PAGE, isBrokerKey } from '../domain/brokers.ts';
import { dataEnvelope, Pagination } from '../http/envelope.ts';
import { pageQuery } from '../http/fields.ts';
import { route } from '../http/route.ts';
import { z } from '../zod.ts';

/** A broker's record: merchants it brought (live, by a live note naming it) and how many carry each risk. */
export const BrokerRecordView = z.object({
  broker_key: z.string(),
  /** The name as reported, tidied: the spelling on most of its merchants' notes (ties: the latest). */
  broker_name: z.string(),
  merchants: z.number().int(),
  with_default: z.number().int(),
  with_fraud: z.number().int(),
  with_stacking: z.number().int(),
  last_reported_at: z.string(),
});
export type BrokerRecordView = z.infer<typeof BrokerRecordView>;

export const BrokerMerchantView = z.object({
  resource_id: z.string(),
  fein: z.string(),
  legal_name: z.string(),
  city: z.string(),
  state: z.string(),
  last_note_category: z.string().nullable(),
  /** When the first note naming the broker was reported on it. */
  reported_at: z.string(),
  default: z.boolean(),
  fraud: z.boolean(),
  stacking: z.boolean(),
});
export type BrokerMerchantView = z.infer<typeof BrokerMerchantView>;

export const listBrokers = route({
  method: 'GET',
  path: '/api/brokers',
  service: 'query',
  readModels: ['broker_notes', 'merchants'],
  access: 'member',
  plan: 'PRO',
  query: pageQuery(BROKERS_PER_PAGE, BROKERS_PER_PAGE[0]),
  response: z.object({ data: z.array(BrokerRecordView), pagination: Pagination }),
  action: 'retrieve brokers',
});

export const getBroker = route({
  method: 'GET',
  path: '/api/brokers/:key',
  service: 'query',
  readModels: ['broker_notes', 'merchants'],
  access: 'member',
  plan: 'PRO',
  // Exactly the keys brokerKey gives (any script, up to the key of a BROKER_NAME_MAX-character name).
  params: z.object({
    key: z
      .string({ error: 'is required' })
      .min(1, 'is required')
      .max(BROKER_KEY_MAX, { message: `must be at most ${BROKER_KEY_MAX} characters`, abort: true })
      .refine(
        isBrokerKey,
        'must be a broker key: lower-case letters and digits, words parted by single spaces',
      ),
  }),
  response: dataEnvelope(BrokerRecordView.extend({ merchant_list: z.array(BrokerMerchantView) })),
  action: 'retrieve broker',
});
