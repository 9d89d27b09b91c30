import { formatEin, type merchantHistory, streams } from '@mrn/contracts';
import { type Handler, notFound } from '@mrn/platform';
import type { QueryDeps } from '../context.ts';

const SUMMARIES: Record<string, (d: Record<string, unknown>) => string> = {
  MerchantAdded: (d) => `Merchant added: ${d.legalName} (EIN ${formatEin(String(d.fein))})`,
  MerchantUpdated: (d) => `Merchant details updated: ${d.legalName}`,
  MerchantArchived: (d) => `Merchant deleted. Reason: ${d.reason}`,
  NoteAdded: (d) => `Note added in ${d.category}`,
  NoteUpdated: (d) => `Note edited (now ${d.category})`,
  NoteDeletionRequested: (d) => `Deletion of a note requested. Reason: ${d.reason}`,
  NoteArchived: () => 'Note deleted',
};

/**
 * The audit replay of a merchant: its whole stream, in order, from the event store itself (not a
 * read model), with the names of who acted, for which account and on whose behalf.
 */
export function historyHandlers(deps: QueryDeps) {
  const merchantHistoryHandler: Handler<typeof merchantHistory> = async (req) => {
    const events = [];
    for await (const e of deps.store.readStream(streams.merchant(req.params.id))) events.push(e);
    if (events.length === 0) throw notFound('Merchant not found.');
    const userIds = [...new Set(events.map((e) => e.metadata.actorUserId).filter((v): v is string => !!v))];
    const accountIds = [
      ...new Set(
        events
          .flatMap((e) => [e.metadata.actorAccountId, e.metadata.onBehalfOfAccountId])
          .filter((v): v is string => !!v),
      ),
    ];
    const [users, accounts] = await Promise.all([
      deps.pool.query<{ id: string; name: string }>(
        `select id, first_name || ' ' || last_name || ' <' || email || '>' as name from read.users where id = any($1::uuid[])`,
        [userIds],
      ),
      deps.pool.query<{ id: string; name: string }>(
        'select id, name from read.accounts where id = any($1::uuid[])',
        [accountIds],
      ),
    ]);
    const userName = new Map(users.rows.map((r) => [r.id, r.name]));
    const accountName = new Map(accounts.rows.map((r) => [r.id, r.name]));
    const nameOf = (map: Map<string, string>, id: string | null | undefined) =>
      id ? (map.get(id) ?? id) : null;
    return {
      data: events.map((e) => {
        const data = e.data as Record<string, unknown>;
        return {
          revision: Number(e.revision),
          type: e.type,
          recorded_at: e.recordedAt.toISOString(),
          summary: SUMMARIES[e.type]?.(data) ?? e.type,
          changes: data,
          actor_user: nameOf(userName, e.metadata.actorUserId),
          actor_account: nameOf(accountName, e.metadata.actorAccountId),
          on_behalf_of_account: nameOf(accountName, e.metadata.onBehalfOfAccountId),
          source: e.metadata.source ?? null,
        };
      }),
    };
  };
  return { merchantHistory: merchantHistoryHandler };
}
