import { useQuery } from '@tanstack/react-query';
import type { JournalFindings, LenderTotals } from '#shared/schemas/ledger.ts';
import { api } from '../../lib/api.ts';

// Moderators' view of the journal (decision 058): bookings whose books do not add up, and each
// lender's yearly totals against the US 1099-K thresholds.

export const booksKeys = {
  findings: ['/api/admin/journal-findings'] as const,
  lenderTotals: (year: number) => ['/api/admin/lender-totals', year] as const,
};

export function useJournalFindings() {
  return useQuery({
    queryKey: booksKeys.findings,
    queryFn: () => api.get<JournalFindings>('/api/admin/journal-findings'),
  });
}

export function useLenderTotals(year: number) {
  return useQuery({
    queryKey: booksKeys.lenderTotals(year),
    queryFn: () => api.get<LenderTotals>(`/api/admin/lender-totals?year=${year}`),
  });
}
