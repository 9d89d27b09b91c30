import {
  type downloadScreeningCsv,
  type downloadScreeningPdf,
  type getScreening,
  type listScreeningHits,
  type listScreeningRows,
  type listScreenings,
  type partnerGetScreening,
  type partnerScreeningResults,
  SCREENING_ROWS_PER_PAGE,
  SCREENING_TEXTS,
} from '@mrn/contracts';
import { type Actor, conflict, type Handler } from '@mrn/platform';
import type { QueryDeps } from '../context.ts';
import { hitsOf, reportRows, screeningOf, screeningsOf } from './screening-queries.ts';
import { screeningCsv, screeningPdf } from './screening-report.ts';

const pagination = (page: number, perPage: number, total: number) => ({
  current_page: page,
  per_page: perPage,
  total_pages: Math.max(1, Math.ceil(total / perPage)),
  total_count: total,
});

/** A file name of the product, the report and when it was screened. */
const fileName = (product: string, id: string, ext: string) =>
  `${product.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-screening-${id.slice(0, 8)}.${ext}`;

export function screeningQueryHandlers(deps: QueryDeps) {
  const listHandler: Handler<typeof listScreenings> = async (req) => {
    const perPage = 20;
    const { views, total } = await screeningsOf(deps.pool, req.actor, req.query.page, perPage);
    return { data: views, pagination: pagination(req.query.page, perPage, total) };
  };

  const getHandler: Handler<typeof getScreening> = async (req) => ({
    data: await screeningOf(deps, req.actor, req.params.id),
  });

  const rowsHandler: Handler<typeof listScreeningRows> = async (req) => {
    await screeningOf(deps, req.actor, req.params.id);
    const { page, per_page = SCREENING_ROWS_PER_PAGE, ...filters } = req.query;
    const { rows, total } = await reportRows(deps.pool, req.params.id, filters, {
      limit: per_page,
      offset: (page - 1) * per_page,
    });
    return { data: rows, pagination: pagination(page, per_page, total) };
  };

  /** The files are of a whole report: refused (409) while the screening runs. */
  const finished = async (actor: Actor, id: string) => {
    const screening = await screeningOf(deps, actor, id);
    if (screening.status !== 'done') throw conflict(SCREENING_TEXTS.notDone);
    return screening;
  };

  const csvHandler: Handler<typeof downloadScreeningCsv> = async (req) => {
    await finished(req.actor, req.params.id);
    const { rows } = await reportRows(deps.pool, req.params.id, req.query);
    req.reply.header('content-type', 'text/csv; charset=utf-8');
    req.reply.header(
      'content-disposition',
      `attachment; filename="${fileName(deps.config.PRODUCT_NAME, req.params.id, 'csv')}"`,
    );
    return screeningCsv(rows);
  };

  const pdfHandler: Handler<typeof downloadScreeningPdf> = async (req) => {
    const screening = await finished(req.actor, req.params.id);
    const { rows } = await reportRows(deps.pool, req.params.id, { outcome: 'found', window: 'ever' });
    const flagged = rows.filter(
      (r) => (r.signals?.categories.length ?? 0) > 0 || (r.signals?.disputes.open ?? 0) > 0,
    );
    const pdf = await screeningPdf(screening, flagged, {
      productName: deps.config.PRODUCT_NAME,
      generatedAt: new Date(),
    });
    req.reply.header('content-type', 'application/pdf');
    req.reply.header(
      'content-disposition',
      `attachment; filename="${fileName(deps.config.PRODUCT_NAME, req.params.id, 'pdf')}"`,
    );
    return pdf;
  };

  const hitsHandler: Handler<typeof listScreeningHits> = async (req) => {
    await screeningOf(deps, req.actor, req.params.id);
    return { data: await hitsOf(deps.pool, req.params.id) };
  };

  return {
    listScreenings: listHandler,
    getScreening: getHandler,
    listScreeningRows: rowsHandler,
    downloadScreeningCsv: csvHandler,
    downloadScreeningPdf: pdfHandler,
    listScreeningHits: hitsHandler,
  };
}

/** The partner API's (issue 32): the same report, in the `{ errors, data }` envelope. */
export function partnerScreeningHandlers(deps: QueryDeps) {
  const getHandler: Handler<typeof partnerGetScreening> = async (req) => ({
    errors: [],
    data: await screeningOf(deps, req.actor, req.params.id),
  });
  const resultsHandler: Handler<typeof partnerScreeningResults> = async (req) => {
    await screeningOf(deps, req.actor, req.params.id);
    const { page, per_page = SCREENING_ROWS_PER_PAGE, ...filters } = req.query;
    const { rows, total } = await reportRows(deps.pool, req.params.id, filters, {
      limit: per_page,
      offset: (page - 1) * per_page,
    });
    return { errors: [], data: { results: rows, total_count: total } };
  };
  return { partnerGetScreening: getHandler, partnerScreeningResults: resultsHandler };
}
