import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { activateLocale } from '../../../lib/i18n.ts';
import { OwnCasesNotice } from './own-cases-notice.tsx';

// A queue that left out the moderator's own cases says so, and warns when no one else can decide them.

afterEach(async () => {
  cleanup();
  await activateLocale('en');
});

describe('OwnCasesNotice', () => {
  it('says nothing when no case involves the moderator', () => {
    const { container } = render(<OwnCasesNotice ownCases={{ withheld: 0, otherModerator: false }} />);
    expect(container.innerHTML).toBe('');
  });

  it('tells the moderator another moderator decides their cases', () => {
    render(<OwnCasesNotice ownCases={{ withheld: 2, otherModerator: true }} />);
    expect(screen.getByRole('status').textContent).toBe(
      '2 cases involve you, so they are not shown here: another moderator decides them.',
    );
  });

  it('warns when no other moderator can decide them, in English and in Spanish', async () => {
    render(<OwnCasesNotice ownCases={{ withheld: 1, otherModerator: false }} />);
    expect(screen.getByRole('alert').textContent).toBe(
      '1 case here involves you, so you cannot decide it, and no other moderator can yet. Add a second moderator to ADMIN_EMAILS and have them sign up.',
    );
    cleanup();
    await activateLocale('es');
    render(<OwnCasesNotice ownCases={{ withheld: 1, otherModerator: false }} />);
    expect(screen.getByRole('alert').textContent).toContain('ADMIN_EMAILS');
    expect(screen.getByRole('alert').textContent).toContain('moderador');
  });
});
