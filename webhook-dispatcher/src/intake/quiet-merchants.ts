import { parseTypedEvent, type Typed } from '@mrn/contracts';
import type { PoolClient, RecordedEvent } from '@mrn/platform';

const MERCHANT_TYPES = new Set(['MerchantAdded', 'MerchantUpdated', 'NoteAdded', 'NoteUpdated']);

type MerchantEvent = Extract<
  Typed<RecordedEvent>,
  { type: 'MerchantAdded' | 'MerchantUpdated' | 'NoteAdded' | 'NoteUpdated' }
>;

interface MerchantCopy {
  merchant_id: string;
  fein: string;
  name: string;
  added_event_id: string | null;
  added_correlation: string | null;
}

/**
 * Most merchant changes concern EINs nobody watches: a bulk import, or the dispatcher catching up on
 * a long log, is almost only those. Such a change notifies no one, and the dispatcher needs of it only
 * its copy of the merchant (EIN, name, the event that added it) as of the batch's end. This splits a
 * batch: the changes of "quiet" merchants (no EIN they had in the batch is watched, or subscribed in
 * the batch itself) are folded into one upsert; everything else is applied event by event, in order.
 * Events of different merchants never interact, so taking the quiet ones apart changes nothing else.
 * An event that does not parse stays on the event-by-event path, which quarantines it.
 */
export async function setQuietMerchantsApart(
  tx: PoolClient,
  events: readonly RecordedEvent[],
): Promise<{ eventByEvent: RecordedEvent[]; quietCopies: MerchantCopy[] }> {
  const parsed = new Map<RecordedEvent, MerchantEvent>();
  const subscribedInBatch = new Set<string>();
  for (const raw of events) {
    if (!MERCHANT_TYPES.has(raw.type) && raw.type !== 'MerchantSubscriptionsAdded') continue;
    // Unreadable: it stays on the event-by-event path, which quarantines it; nothing of it is watched.
    const e = tryParse(raw);
    if (!e) continue;
    switch (e.type) {
      case 'MerchantAdded':
      case 'MerchantUpdated':
      case 'NoteAdded':
      case 'NoteUpdated':
        parsed.set(raw, e);
        break;
      case 'MerchantSubscriptionsAdded':
        for (const fein of e.data.feins) subscribedInBatch.add(fein);
        break;
    }
  }
  if (parsed.size === 0) return { eventByEvent: [...events], quietCopies: [] };

  const merchantIds = [...new Set([...parsed.values()].map((e) => e.data.merchantId))];
  const stored = new Map(
    (
      await tx.query<MerchantCopy>(
        `select merchant_id, fein, name, added_event_id, added_correlation
           from webhook_merchants where merchant_id = any($1::uuid[])`,
        [merchantIds],
      )
    ).rows.map((r) => [r.merchant_id, r]),
  );
  const feinsOf = new Map<string, Set<string>>();
  for (const id of merchantIds) feinsOf.set(id, new Set(stored.has(id) ? [stored.get(id)!.fein] : []));
  for (const e of parsed.values()) {
    if (e.type === 'MerchantAdded' || e.type === 'MerchantUpdated')
      feinsOf.get(e.data.merchantId)!.add(e.data.fein);
  }
  const allFeins = [...new Set([...feinsOf.values()].flatMap((s) => [...s]))];
  const watched = new Set(
    (
      await tx.query<{ fein: string }>(
        'select distinct fein from webhook_watches where fein = any($1::text[])',
        [allFeins],
      )
    ).rows.map((r) => r.fein),
  );
  const isQuiet = (merchantId: string) =>
    ![...feinsOf.get(merchantId)!].some((f) => watched.has(f) || subscribedInBatch.has(f));

  const eventByEvent: RecordedEvent[] = [];
  const copies = new Map<string, MerchantCopy>();
  for (const raw of events) {
    const e = parsed.get(raw);
    if (!e || !isQuiet(e.data.merchantId)) {
      eventByEvent.push(raw);
      continue;
    }
    // A note on a quiet merchant changes nothing the dispatcher keeps.
    if (e.type !== 'MerchantAdded' && e.type !== 'MerchantUpdated') continue;
    const d = e.data;
    const before = copies.get(d.merchantId) ?? stored.get(d.merchantId);
    copies.set(d.merchantId, {
      merchant_id: d.merchantId,
      fein: d.fein,
      name: d.dba ? `${d.legalName} (${d.dba})` : d.legalName,
      added_event_id: e.type === 'MerchantAdded' ? raw.id : (before?.added_event_id ?? null),
      added_correlation:
        e.type === 'MerchantAdded'
          ? (raw.metadata.correlationId ?? null)
          : (before?.added_correlation ?? null),
    });
  }
  return { eventByEvent, quietCopies: [...copies.values()] };
}

/** Writes the quiet merchants' copies, one statement for the batch. */
export async function storeQuietCopies(tx: PoolClient, copies: readonly MerchantCopy[]): Promise<void> {
  if (copies.length === 0) return;
  await tx.query(
    `insert into webhook_merchants (merchant_id, fein, name, added_event_id, added_correlation)
     select merchant_id, fein, name, added_event_id, added_correlation
       from json_to_recordset($1::json)
         as r(merchant_id uuid, fein text, name text, added_event_id uuid, added_correlation text)
     on conflict (merchant_id) do update set fein = excluded.fein, name = excluded.name,
       added_event_id = excluded.added_event_id, added_correlation = excluded.added_correlation`,
    [JSON.stringify(copies)],
  );
}

function tryParse(raw: RecordedEvent) {
  try {
    return parseTypedEvent(raw);
  } catch {
    return undefined;
  }
}
