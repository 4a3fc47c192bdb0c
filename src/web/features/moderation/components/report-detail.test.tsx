import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReportDetail } from '#shared/schemas/moderation.ts';
import { aModeratedUser } from '../../../../../tests/helpers/moderation-view.ts';
import { activateLocale } from '../../../lib/i18n.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { ReportDetailPanel } from './report-detail.tsx';

// One resolved report about an item, as a moderator opens it: the decision line, the history's
// sentences and the reason, in English and in Spanish.

const reporter = { id: '00000000-0000-4000-8000-000000000001', fullName: 'Jordan Lee', username: 'jordan' };
const moderator = {
  id: '00000000-0000-4000-8000-000000000002',
  fullName: 'Morgan Reyes',
  username: 'morgan',
};
const owner = { id: '00000000-0000-4000-8000-000000000003', fullName: 'Maya Chen', username: 'maya' };
const itemId = '00000000-0000-4000-8000-0000000000aa';
const reportId = '00000000-0000-4000-8000-0000000000bb';

const detail: ReportDetail = {
  report: {
    id: reportId,
    reason: 'fake_listing',
    description: 'Copied from a resale site.',
    status: 'resolved',
    createdAt: '2026-03-05T20:00:00.000Z',
    reviewedAt: '2026-03-06T18:30:00.000Z',
    reporter,
    target: {
      kind: 'item',
      item: { id: itemId, title: 'Cordless drill', hidden: true, deleted: false },
      user: { ...owner, suspended: false, deleted: false },
    },
    adminNotes: 'Hidden after a look at the photos.',
    reviewedBy: moderator,
  },
  item: {
    id: itemId,
    title: 'Cordless drill',
    description: 'An 18 V drill.',
    category: 'tools',
    images: [],
    hiddenAt: '2026-03-06T18:00:00.000Z',
    deletedAt: null,
    createdAt: '2026-02-01T18:00:00.000Z',
    owner,
  },
  ask: null,
  user: aModeratedUser(owner, 'maya@stanford.edu'),
  otherReports: [],
  history: [
    {
      id: '00000000-0000-4000-8000-0000000000c1',
      action: 'hide_item',
      note: null,
      reportId,
      targetUserId: null,
      targetItemId: itemId,
      admin: moderator,
      createdAt: '2026-03-06T18:00:00.000Z',
    },
    {
      id: '00000000-0000-4000-8000-0000000000c2',
      action: 'note',
      note: 'Checked the photos.',
      reportId,
      targetUserId: null,
      targetItemId: null,
      admin: null,
      createdAt: '2026-03-06T17:00:00.000Z',
    },
  ],
};

async function openReport() {
  vi.spyOn(globalThis, 'fetch').mockImplementation(
    async () =>
      new Response(JSON.stringify(detail), { status: 200, headers: { 'content-type': 'application/json' } }),
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <ReportDetailPanel reportId={reportId} backTo="/admin" />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return screen.findByRole('region');
}

afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  await activateLocale('en');
});

describe('ReportDetailPanel', () => {
  it('says who decided and what moderators did, one sentence each', async () => {
    const panel = await openReport();
    const text = panel.textContent ?? '';
    expect(text).toContain('Fake Listing');
    expect(text).toContain('Reported by Jordan Lee on Mar 5, 2026 • 12:00 PM');
    expect(text).toContain('Resolved by Morgan Reyes on Mar 6, 2026 • 10:30 AM');
    expect(text).toContain('Morgan Reyes hid the item');
    expect(text).toContain('A former moderator added a note');
    expect(text).toContain('Hidden since Mar 6, 2026');
    expect(text).toContain('Joined September 2025 · verified');
    expect(screen.getByRole('button', { name: 'Unhide' })).toBeTruthy();
  });

  it('reads in Spanish', async () => {
    await activateLocale('es');
    const panel = await openReport();
    const text = panel.textContent ?? '';
    expect(text).toContain('Publicación falsa');
    expect(text).toContain('Reportado por Jordan Lee el 5 mar 2026 • 12:00 p.m.');
    expect(text).toContain('Resuelto por Morgan Reyes el 6 mar 2026 • 10:30 a.m.');
    expect(text).toContain('Morgan Reyes ocultó el artículo');
    expect(text).toContain('Un/a exmoderador/a agregó una nota');
    expect(text).toContain('Oculto desde el 6 mar 2026');
    expect(text).toContain('Se unió en septiembre de 2025 · verificado');
    expect(screen.getByRole('button', { name: 'Volver a mostrar' })).toBeTruthy();
    expect(text).not.toMatch(/Reported by|Resolved by|hid the item|Fake Listing|Joined|History/);
  });
});
