import { format } from 'date-fns';
import { ArrowRight, MessageCircle } from 'lucide-react';
import { useNavigate } from 'react-router';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { Button } from '../../../components/ui/button.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { paths } from '../../../paths.ts';
import { useStartReservationConversation } from '../../chat/api.ts';
import { formatDate } from '../../items/components/item-labels.ts';

// Issue 16 'What happens next': each reservation card says who acts next and by when, and offers a
// message to the other person. Rendered inside the card (its children), so the card itself stays as
// the state machine's screen (reservation-card.tsx).

/** A pending request's answer-by instant, as the screens say it: 'Thu, Nov 26 at 3:30 PM'. */
export function answerBy(iso: string): string {
  return format(new Date(iso), "EEE, MMM d 'at' h:mm a");
}

const day = (date: string) => formatDate(date, 'EEE, MMM d');

/** Who acts next and by when, for this viewer; null when nothing more happens. */
export function nextStep(r: Reservation, viewerId: string): { who: 'you' | 'them'; text: string } | null {
  const asBorrower = viewerId === r.borrowerId;
  const lender = r.provider.fullName;
  const borrower = r.borrower.fullName;
  const by = r.respondBy ? ` by ${answerBy(r.respondBy)}` : '';
  switch (r.status) {
    case 'pending':
      return asBorrower
        ? { who: 'them', text: `Waiting for ${lender} to approve or decline${by}.` }
        : { who: 'you', text: `Your turn: approve or decline${by}, or the request expires.` };
    case 'approved':
      return asBorrower
        ? {
            who: 'you',
            text: `Your turn: meet ${lender} on ${day(r.startDate)} and show your pickup code.`,
          }
        : {
            who: 'you',
            text: `Your turn: hand it over to ${borrower} on ${day(r.startDate)} and enter their pickup code under Item Collected.`,
          };
    case 'active': {
      if (r.overdue) {
        // Issue 17 item 5: late. The lender may claim from the deposit once it is 24 hours late.
        const from = r.claim?.claimableFrom;
        const claimable =
          from && Date.parse(from) > Date.now()
            ? `From ${answerBy(from)} you can report a problem and claim from the deposit.`
            : 'You can report a problem and claim from the deposit.';
        return asBorrower
          ? {
              who: 'you',
              text: `Overdue: it was due back on ${day(r.endDate)}. Return it to ${lender} now, then press Item Returned. Until then you cannot request new items.`,
            }
          : { who: 'them', text: `${borrower} is late: it was due back on ${day(r.endDate)}. ${claimable}` };
      }
      return asBorrower
        ? {
            who: 'you',
            text: `Your turn: return it to ${lender} by ${day(r.endDate)}, then press Item Returned.`,
          }
        : {
            who: 'them',
            text: `${borrower} returns it by ${day(r.endDate)}. Once you have it back, confirm it came back in good condition.`,
          };
    }
    case 'returned': {
      const until = r.claim?.confirmBy ? ` by ${answerBy(r.claim.confirmBy)}` : '';
      return asBorrower
        ? {
            who: 'them',
            text: `${lender} confirms the return${until}. Your deposit comes back then at the latest, unless they report a problem.`,
          }
        : {
            who: 'you',
            text: `Your turn: confirm it came back in good condition, or report a problem${until}. With no answer, the deposit goes back to ${borrower}.`,
          };
    }
    case 'claimed':
      return asBorrower
        ? {
            who: 'you',
            text: `Your turn: accept ${lender}'s claim or dispute it; a dispute goes to a moderator.`,
          }
        : { who: 'them', text: `Waiting for ${borrower} to accept or dispute your claim.` };
    case 'disputed':
      return { who: 'them', text: 'A moderator decides the disputed claim and tells you both.' };
    default:
      return null;
  }
}

export function NextStep({ reservation: r, viewerId }: { reservation: Reservation; viewerId: string }) {
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
          <span className="font-semibold">Next: </span>
          {step.text}
        </span>
      </p>
      <MessageButton reservationId={r.id} name={other.fullName} />
    </div>
  );
}

function MessageButton({ reservationId, name }: { reservationId: string; name: string }) {
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
              title: 'Failed to start chat',
              description: errorMessage(error, 'Please try again.'),
            }),
        })
      }
    >
      <MessageCircle className="h-4 w-4" aria-hidden="true" />
      Message {name}
    </Button>
  );
}
