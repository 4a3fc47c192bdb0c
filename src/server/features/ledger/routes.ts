import { journalFindingsResponse, lenderTotalsQuery, lenderTotalsResponse } from '#shared/schemas/ledger.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { moderatorRoutes } from '../../http/route-scopes.ts';
import { booksForModerators } from './books-for-moderators.ts';

// /api/admin/journal-findings and /api/admin/lender-totals (decision 058): moderators only, one hook
// guards the group.

export const ledgerRoutes = moderatorRoutes<{ db: Db; config: Config }>(async (app, { db, config }) => {
  app.get('/admin/journal-findings', { schema: { response: { 200: journalFindingsResponse } } }, async () =>
    booksForModerators.findings(db),
  );

  app.get(
    '/admin/lender-totals',
    { schema: { querystring: lenderTotalsQuery, response: { 200: lenderTotalsResponse } } },
    async (request) => booksForModerators.lenderTotals(db, config.taxReport, request.query.year),
  );
});
