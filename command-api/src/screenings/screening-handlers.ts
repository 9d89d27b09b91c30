import {
  type addMerchantSubscriptions,
  type createScreening,
  formatEin,
  isEinDigits,
  normaliseEin,
  type partnerCreateScreening,
  SCREENING_ROW_PROBLEMS,
  SCREENING_TEXTS,
  type ScreeningRequestBody,
  type ScreeningSource,
  streams,
} from '@mrn/contracts';
import { type Actor, forbidden, type Handler, newId } from '@mrn/platform';
import { loadAccount } from '../accounts/account-service.ts';
import { defineAggregate, transact } from '../command-handler.ts';
import { type CommandDeps, metadataFor } from '../context.ts';
import { recordIds } from '../idempotency.ts';
import { readEinRows } from '../imports/ein-csv.ts';
import { subscriptions } from '../merchant-subscriptions/aggregate.ts';
import { subscriptionAccount } from '../merchant-subscriptions/merchant-subscription-handlers.ts';
import {
  allowanceDay,
  allowanceDecider,
  type RejectedRow,
  type ScreeningRow,
  screeningDecider,
} from './screening.ts';

export const screenings = defineAggregate({ decider: screeningDecider, streamId: streams.screening });
/** Keyed `{accountId}/{day}`: one stream a funder a UTC day. */
export const screeningAllowances = defineAggregate({
  decider: allowanceDecider,
  streamId: (key: string) => {
    const [accountId, day] = key.split('/') as [string, string];
    return streams.screeningAllowance(accountId, day);
  },
});

/** The EINs to screen, each once (a repeat is a rejected row naming the first), and the rows that are not EINs. */
export async function screeningRows(
  deps: CommandDeps,
  actor: Actor,
  body: ScreeningRequestBody | { source: 'api'; feins: readonly string[] },
): Promise<{ rows: ScreeningRow[]; rejected: RejectedRow[] }> {
  const read: { row: number; input: string; fein?: string; problem?: string }[] = [];
  if (body.source === 'csv') {
    for (const r of await readEinRows(Buffer.from(body.csv, 'utf8')))
      read.push(
        'fein' in r
          ? { row: r.line, input: r.input, fein: r.fein }
          : { row: r.line, input: r.input, problem: r.error.replace(/^error: /, '') },
      );
  } else if (body.source === 'api') {
    body.feins.forEach((input, i) => {
      const fein = normaliseEin(input.trim());
      read.push(
        isEinDigits(fein)
          ? { row: i + 1, input, fein }
          : { row: i + 1, input, problem: SCREENING_ROW_PROBLEMS.notEin },
      );
    });
  } else {
    const state = await subscriptions.load(deps.store, actor.accountId);
    [...state.state.feins].sort().forEach((fein, i) => {
      read.push({ row: i + 1, input: formatEin(fein), fein });
    });
    if (read.length === 0) throw forbidden(SCREENING_TEXTS.noSubscriptions);
  }
  const first = new Map<string, number>();
  const rows: ScreeningRow[] = [];
  const rejected: RejectedRow[] = [];
  for (const r of read) {
    if (r.fein === undefined) {
      rejected.push({ row: r.row, input: r.input, problem: r.problem ?? SCREENING_ROW_PROBLEMS.notEin });
      continue;
    }
    const seen = first.get(r.fein);
    if (seen !== undefined)
      rejected.push({ row: r.row, input: r.input, problem: SCREENING_ROW_PROBLEMS.repeated(seen) });
    else {
      first.set(r.fein, r.row);
      rows.push({ row: r.row, input: r.input, fein: r.fein });
    }
  }
  return { rows, rejected };
}

/**
 * Starts a screening: the rules (a contribution lock stops it as it stops search; the day's allowance)
 * decided from the account's and the allowance's streams, the request and the allowance used appended at
 * once. The query side screens it in the background; the answer is the id to follow it by.
 */
export async function startScreening(
  deps: CommandDeps,
  actor: Actor,
  input: { source: ScreeningSource; fileName: string | null; rows: ScreeningRow[]; rejected: RejectedRow[] },
  metadata: ReturnType<typeof metadataFor>,
  /** With an Idempotency-Key, the same id for the same request: a retried POST starts nothing new. */
  screeningId: string = newId(),
) {
  if (!actor.isDmAdmin) {
    const { state: account } = await loadAccount(deps, actor.accountId);
    if (account.status === 'open' && account.contributionLocked && !account.contributionOverride)
      throw forbidden(SCREENING_TEXTS.locked);
  }
  const now = deps.clock.now();
  const { position, events } = await transact(deps, { ctx: { now, actor }, metadata }, async (unit) => {
    await unit.decide(screenings, screeningId, {
      type: 'RequestScreening',
      screeningId,
      accountId: actor.accountId,
      userId: actor.userId,
      ...input,
    });
    await unit.decide(screeningAllowances, `${actor.accountId}/${allowanceDay(now)}`, {
      type: 'UseAllowance',
      accountId: actor.accountId,
      day: allowanceDay(now),
      screeningId,
      eins: input.rows.length,
    });
  });
  return {
    /** False for a retry with its Idempotency-Key: nothing new recorded (200, not 201). */
    created: events.length > 0,
    answer: {
      data: {
        resource_id: screeningId,
        status: 'queued' as const,
        total: input.rows.length,
        rejected: input.rejected,
      },
      ...(position ? { position } : {}),
    },
  };
}

export function screeningHandlers(deps: CommandDeps) {
  const createScreeningHandler: Handler<typeof createScreening> = async (req) => {
    const { rows, rejected } = await screeningRows(deps, req.actor, req.body);
    const ids = await recordIds(deps.pool, req.request, req.actor, {
      route: 'createScreening',
      body: req.body,
    });
    const { created, answer } = await startScreening(
      deps,
      req.actor,
      {
        source: req.body.source,
        fileName: req.body.source === 'csv' ? req.body.file_name : null,
        rows,
        rejected,
      },
      metadataFor(req),
      ids('screening'),
    );
    req.reply.code(created ? 201 : 200);
    return answer;
  };

  // "Watch all hits" (issue 32): the EINs a screening found, watched in one command; those already
  // watched are left as they are.
  const addSubscriptionsHandler: Handler<typeof addMerchantSubscriptions> = async (req) => {
    const accountId = req.params.id;
    await subscriptionAccount(deps, accountId, req.actor);
    const feins = [...new Set(req.body.feins)];
    const result = await subscriptions.handle(
      deps,
      accountId,
      { type: 'Subscribe', accountId, feins, source: 'web' },
      { now: deps.clock.now(), actor: req.actor },
      metadataFor(req),
    );
    const added = result.events.reduce(
      (n, e) => n + (e.type === 'MerchantSubscriptionsAdded' ? e.data.feins.length : 0),
      0,
    );
    return {
      data: { added, already_watched: feins.length - added },
      ...(result.position ? { position: result.position } : {}),
    };
  };

  return {
    createScreening: createScreeningHandler,
    addMerchantSubscriptions: addSubscriptionsHandler,
  };
}

/** The partner API's (issue 32): the same rules and request, from a list of EINs. */
export function partnerScreeningHandler(deps: CommandDeps): Handler<typeof partnerCreateScreening> {
  return async (req) => {
    const { rows, rejected } = await screeningRows(deps, req.actor, { source: 'api', feins: req.body.feins });
    const ids = await recordIds(deps.pool, req.request, req.actor, {
      route: 'partnerCreateScreening',
      body: req.body,
    });
    const { created, answer } = await startScreening(
      deps,
      req.actor,
      { source: 'api', fileName: null, rows, rejected },
      metadataFor(req),
      ids('screening'),
    );
    req.reply.code(created ? 201 : 200);
    return { errors: [], data: answer.data };
  };
}
