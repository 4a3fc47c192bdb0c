import { Plural, Trans } from '@lingui/react/macro';
import { Scale } from 'lucide-react';
import type { OwnCases } from '#shared/schemas/moderation.ts';
import { cn } from '../../../lib/cn.ts';

// No one decides their own case: a queue leaves out what the moderator is a party to, and says so here,
// with a warning when no other moderator exists to decide it.

export function OwnCasesNotice({ ownCases }: { ownCases: OwnCases | undefined }) {
  if (!ownCases || ownCases.withheld === 0) return null;
  const count = ownCases.withheld;
  const alone = !ownCases.otherModerator;
  return (
    <div
      role={alone ? 'alert' : 'status'}
      className={cn(
        'mt-6 flex gap-3 rounded-xl border px-4 py-3 text-sm',
        alone ? 'border-amber-300 bg-amber-50 text-amber-900' : 'border-stone-200 bg-stone-50 text-stone-700',
      )}
    >
      <Scale className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
      <p>
        {alone ? (
          <Trans>
            <Plural
              value={count}
              one="# case here involves you, so you cannot decide it, and no other moderator can yet."
              other="# cases here involve you, so you cannot decide them, and no other moderator can yet."
            />{' '}
            Add a second moderator to ADMIN_EMAILS and have them sign up.
          </Trans>
        ) : (
          <Plural
            value={count}
            one="# case involves you, so it is not shown here: another moderator decides it."
            other="# cases involve you, so they are not shown here: another moderator decides them."
          />
        )}
      </p>
    </div>
  );
}
