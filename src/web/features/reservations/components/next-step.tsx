import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowRight, MessageCircle } from 'lucide-react';
import { useNavigate } from 'react-router';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { Button } from '../../../components/ui/button.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { paths } from '../../../paths.ts';
import { useStartReservationConversation } from '../../chat/api.ts';
import { dateTime, dayLabel } from '../dates.ts';

// 'What happens next': each reservation card says who acts next and by when, so nobody waits on the
// other without knowing it, and offers a message to the other person. Rendered inside the card (its
// children), so the card itself stays as the state machine's screen (reservation-card.tsx).

/** A pending request's answer-by instant, as the screens say it: 'Thu, Nov 26 at 3:30 PM'. */
export function answerBy(iso: string): string {
  return dateTime(iso, 'weekday');
}

const day = (date: string) => dayLabel(date, 'weekday');

/** Who acts next and by when, for this viewer; null when nothing more happens. */
export function nextStep(r: Reservation, viewerId: string): { who: 'you' | 'them'; text: string } | null {
  const asBorrower = viewerId === r.borrowerId;
  const lender = r.provider.fullName;
  const borrower = r.borrower.fullName;
  const by = r.respondBy ? answerBy(r.respondBy) : null;
  const start = day(r.startDate);
  const end = day(r.endDate);
  switch (r.status) {
    case 'pending':
      if (asBorrower)
        return {
          who: 'them',
          text: by
            ? t`Waiting for ${lender} to approve or decline by ${by}.`
            : t`Waiting for ${lender} to approve or decline.`,
        };
      return {
        who: 'you',
        text: by
          ? t`Your turn: approve or decline by ${by}, or the request expires.`
          : t`Your turn: approve or decline, or the request expires.`,
      };
    case 'approved':
      return asBorrower
        ? {
            who: 'you',
            text: t`Your turn: meet ${lender} on ${start} and show your pickup code.`,
          }
        : {
            who: 'you',
            text: t`Your turn: hand it over to ${borrower} on ${start} and enter their pickup code under Picked Up.`,
          };
    case 'active': {
      if (r.overdue) {
        // Late: the lender may claim from the deposit once it is 24 hours late (decision 029).
        const from = r.claim?.claimableFrom;
        const fromLabel = from && Date.parse(from) > Date.now() ? answerBy(from) : null;
        const claimable = fromLabel
          ? t`From ${fromLabel} you can report a problem and claim from the deposit.`
          : t`You can report a problem and claim from the deposit.`;
        return asBorrower
          ? {
              who: 'you',
              text: t`Overdue: it was due back on ${end}. Return it to ${lender} now, then press Item Returned. Until then you cannot request new items.`,
            }
          : { who: 'them', text: `${t`${borrower} is late: it was due back on ${end}.`} ${claimable}` };
      }
      return asBorrower
        ? {
            who: 'you',
            text: t`Your turn: return it to ${lender} by ${end}, then press Item Returned.`,
          }
        : {
            who: 'them',
            text: t`${borrower} returns it by ${end}. Once you have it back, confirm it came back in good condition.`,
          };
    }
    case 'returned': {
      const until = r.claim?.confirmBy ? answerBy(r.claim.confirmBy) : null;
      if (asBorrower)
        return {
          who: 'them',
          text: until
            ? t`${lender} confirms the return by ${until}. Your deposit comes back then at the latest, unless they report a problem.`
            : t`${lender} confirms the return. Your deposit comes back then at the latest, unless they report a problem.`,
        };
      return {
        who: 'you',
        text: until
          ? t`Your turn: confirm it came back in good condition, or report a problem by ${until}. With no answer, the deposit goes back to ${borrower}.`
          : t`Your turn: confirm it came back in good condition, or report a problem. With no answer, the deposit goes back to ${borrower}.`,
      };
    }
    case 'claimed':
      return asBorrower
        ? {
            who: 'you',
            text: t`Your turn: accept ${lender}'s claim or dispute it; a dispute goes to a moderator.`,
          }
        : { who: 'them', text: t`Waiting for ${borrower} to accept or dispute your claim.` };
    case 'disputed':
      return { who: 'them', text: t`A moderator decides the disputed claim and tells you both.` };
    default:
      return null;
  }
}

/** Something on this reservation waits for this person (My Reservations opens on, and counts, these). */
export function waitsFor(r: Reservation, viewerId: string): boolean {
  return nextStep(r, viewerId)?.who === 'you';
}

export function NextStep({ reservation: r, viewerId }: { reservation: Reservation; viewerId: string }) {
  // t also re-renders this in the active language: the step's text is written by nextStep.
  const { t } = useLingui();
  const step = nextStep(r, viewerId);
  const other = viewerId === r.borrowerId ? r.provider : r.borrower;
  if (!step) {
    return (
      <div className="mt-4 flex justify-end">
        <MessageButton reservationId={r.id} name={other.fullName} />
      </div>
    );
  }
  return (
    <div className="mt-4 flex flex-col gap-3 rounded-xl border border-line bg-stone-50 p-3 sm:flex-row sm:items-center sm:justify-between">
      <p className="flex items-start gap-2 text-sm text-ink">
        <ArrowRight className="rtl:-scale-x-100 mt-0.5 h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
        <span>
          <span className="font-semibold">{t`Next:`} </span>
          {step.text}
        </span>
      </p>
      <MessageButton reservationId={r.id} name={other.fullName} />
    </div>
  );
}

function MessageButton({ reservationId, name }: { reservationId: string; name: string }) {
  const { t } = useLingui();
  const start = useStartReservationConversation();
  const navigate = useNavigate();
  return (
    <Button
      variant="outline"
      className="shrink-0 bg-white"
      disabled={start.isPending}
      onClick={() =>
        start.mutate(reservationId, {
          onSuccess: (conversation) => navigate(paths.chat(conversation.id)),
          onError: (error) =>
            toast({
              variant: 'destructive',
              title: t`Failed to start chat`,
              description: errorMessage(error, t`Please try again.`),
            }),
        })
      }
    >
      <MessageCircle className="h-4 w-4" aria-hidden="true" />
      <Trans>Message {name}</Trans>
    </Button>
  );
}
