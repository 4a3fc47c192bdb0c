import { Trans, useLingui } from '@lingui/react/macro';
import { CalendarCheck, CheckCircle2, Clock, KeyRound, Wallet } from 'lucide-react';
import { Dialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { heldCents } from '#shared/booking/pricing.ts';
import { formatMoney } from '#shared/format.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { Button } from '../../../components/ui/button.tsx';
import { paths } from '../../../paths.ts';
import { dayLabel } from '../dates.ts';
import { amountsOf, chargeParts } from '../money-wording.ts';
import { answerBy } from './next-step.tsx';

// 'What happens next': after paying (or requesting a free item) the Reserve dialog says who decides, by
// when, what the card sees, where the pickup code will appear, and links to My Reservations, instead of
// just closing.

/** The Reserve dialog's last step (its title and description are the dialog's). */
export function RequestSent({ reservation: r, onDone }: { reservation: Reservation; onDone: () => void }) {
  const { t } = useLingui();
  const lender = r.provider.fullName;
  const title = r.item.title;
  const from = dayLabel(r.startDate, 'short');
  const to = dayLabel(r.endDate, 'short');
  const amounts = amountsOf(r);
  const total = heldCents(amounts);
  const totalLabel = formatMoney(total);
  const parts = chargeParts(amounts);
  const by = r.respondBy ? answerBy(r.respondBy) : null;
  return (
    <div className="space-y-5">
      <div className="flex items-start gap-3 pe-10">
        <CheckCircle2 className="mt-0.5 h-7 w-7 shrink-0 text-brand-700" aria-hidden="true" />
        <div>
          <Dialog.Title className="text-xl font-bold text-ink">
            <Trans>Request sent to {lender}</Trans>
          </Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-stone-700">
            <Trans>
              {title}, {from} – {to}
            </Trans>
          </Dialog.Description>
        </div>
      </div>
      <ol className="space-y-3">
        <Step icon={<Clock />} title={t`${lender} decides`}>
          {by
            ? t`${lender} approves or declines by ${by}. If there is no answer by then, the request expires.`
            : t`${lender} approves or declines your request.`}
        </Step>
        <Step icon={<Wallet />} title={total > 0 ? t`${totalLabel} on hold` : t`Nothing to pay`}>
          {total > 0
            ? t`Nothing is charged yet. If ${lender} approves, your card is charged ${totalLabel} (${parts}); if not, the hold is released.`
            : t`This item is free: no card needed.`}
        </Step>
        <Step icon={<KeyRound />} title={t`Your pickup code`}>
          <Trans>
            Once approved, your 6-digit pickup code appears on this request in My Reservations. Show it to{' '}
            {lender} at the handover.
          </Trans>
        </Step>
      </ol>
      <div className="flex flex-col gap-3 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onDone}>
          <Trans>Done</Trans>
        </Button>
        <Button asChild>
          <Link to={paths.reservations}>
            <CalendarCheck className="h-4 w-4" aria-hidden="true" />
            <Trans>Go to My Reservations</Trans>
          </Link>
        </Button>
      </div>
    </div>
  );
}

function Step({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-3 rounded-xl bg-stone-50 p-3">
      <span className="mt-0.5 shrink-0 text-brand-700 [&_svg]:h-5 [&_svg]:w-5" aria-hidden="true">
        {icon}
      </span>
      <span>
        <span className="block font-semibold text-ink">{title}</span>
        <span className="block text-sm text-stone-700">{children}</span>
      </span>
    </li>
  );
}
