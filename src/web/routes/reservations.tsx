import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { CalendarCheck, PackageOpen, Wallet } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { Skeleton } from '../components/ui/skeleton.tsx';
import { useSession } from '../features/auth/api.ts';
import { PayoutsNeededNote } from '../features/payouts/components/payouts-needed-note.tsx';
import { approvalFailureToast } from '../features/reservations/approval-failure.ts';
import { ExtensionPanel } from '../features/reservations/components/extension-panel.tsx';
import { HandoverPanel } from '../features/reservations/components/handover-panel.tsx';
import { NextStep, waitsFor } from '../features/reservations/components/next-step.tsx';
import { ReservationCard } from '../features/reservations/components/reservation-card.tsx';
import { approvalToast } from '../features/reservations/money-wording.ts';
import {
  type ClaimAction,
  type StatusUpdate,
  useApproveReservation,
  useClaimAction,
  useCompletePayment,
  useDeclineReservation,
  useReservations,
  useUpdateReservationStatus,
} from '../features/reservations/queries.ts';
import { useMyReviews } from '../features/reviews/api.ts';
import { ReservationReview } from '../features/reviews/components/reservation-review.tsx';
import { errorMessage } from '../lib/api.ts';
import { toast } from '../lib/toast.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';
import { AuthGuard } from '../shell/auth-guard.tsx';

// Spec §2 My Reservations, §4 actions, §8 toasts; reviews. `?review={id}` (from a 'Leave a
// review' notification) opens the right tab, brings that card into view and opens its review dialog;
// `?reservation={id}` does the same without the dialog.
// `?payment_intent=…&redirect_status=…` is the bank's return after 3-D Secure (spec §4: the return
// address is /reservations): the request the Reserve dialog would have sent is made here.

export default function ReservationsRoute() {
  return (
    <AuthGuard>
      <ReservationsPage />
    </AuthGuard>
  );
}

// One line each at 375 px in either language: the waiting count sits on the tab's corner, not beside
// its words.
const tabClasses =
  'relative min-h-11 flex-1 whitespace-nowrap rounded-lg px-3 py-2 text-sm font-semibold text-stone-700 ' +
  'sm:flex-none sm:px-4 data-[state=active]:bg-white data-[state=active]:text-brand-800 ' +
  'data-[state=active]:shadow-sm';

type ListTab = 'borrowing' | 'lending';
const listTab = (value: string | null): ListTab | undefined =>
  value === 'borrowing' || value === 'lending' ? value : undefined;

/** How many reservations on a tab wait for this person; read out as part of the tab's name. */
function WaitingBadge({ count }: { count: number }) {
  const { t } = useLingui();
  if (count === 0) return null;
  return (
    <>
      <span className="sr-only">
        , {t`${plural(count, { one: '# waits for you', other: '# wait for you' })}`}
      </span>
      <span
        aria-hidden="true"
        className="absolute -end-1 -top-1.5 inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-brand-700 px-1.5 text-xs font-bold text-white"
      >
        {count}
      </span>
    </>
  );
}

function ReservationsPage() {
  const { t } = useLingui();
  useDocumentTitle(t`My Reservations`);
  const { user } = useSession();
  const { data: reservations = [], isPending, isError, error, refetch, isFetching } = useReservations();
  const updateStatus = useUpdateReservationStatus();
  usePaymentReturn();
  const approve = useApproveReservation();
  const decline = useDeclineReservation();
  const navigate = useNavigate();
  const claimAction = useClaimAction();
  const busy = updateStatus.isPending || approve.isPending || decline.isPending || claimAction.isPending;
  const userId = user?.id ?? '';

  const borrowing = reservations.filter((r) => r.borrowerId === userId);
  const lending = reservations.filter((r) => r.providerId === userId);
  const borrowingCount = borrowing.length;
  const lendingCount = lending.length;
  const borrowingWaiting = borrowing.filter((r) => waitsFor(r, userId)).length;
  const lendingWaiting = lending.filter((r) => waitsFor(r, userId)).length;

  const myReviews = useMyReviews(reservations.some((r) => r.status === 'completed'));
  const reviewByReservation = new Map((myReviews.data ?? []).map((review) => [review.reservationId, review]));
  const [searchParams, setSearchParams] = useSearchParams();
  const reviewTarget = reservations.find((r) => r.id === searchParams.get('review'));
  // `?reservation={id}` (a toast's 'View'): the card on its tab, in view, without a dialog.
  const shownTarget = reviewTarget ?? reservations.find((r) => r.id === searchParams.get('reservation'));
  // Opened on the tab where something waits for this person, chosen once when the list arrives: a
  // tab that moved under the student's thumb after an answer would lose their place.
  // Back from the bank with a request just made: it is under Borrowing, whatever waits elsewhere.
  const [backFromPayment] = useState(() => searchParams.has('payment_intent'));
  const [openedOn, setOpenedOn] = useState<ListTab>();
  if (openedOn === undefined && !isPending && user)
    setOpenedOn(!backFromPayment && borrowingWaiting === 0 && lendingWaiting > 0 ? 'lending' : 'borrowing');
  // A tab the student picked stays in the address (a reload or a shared link keeps it).
  const chosenTab = listTab(searchParams.get('tab'));
  const tab =
    chosenTab ??
    (shownTarget ? (shownTarget.providerId === userId ? 'lending' : 'borrowing') : (openedOn ?? 'borrowing'));
  const chooseTab = (next: string) => {
    const picked = listTab(next);
    if (picked) setSearchParams({ tab: picked }, { replace: true });
  };
  const reviewTargetId = reviewTarget?.id;
  const shownTargetId = shownTarget?.id;
  useEffect(() => {
    if (shownTargetId)
      document.getElementById(`reservation-${shownTargetId}`)?.scrollIntoView({ block: 'center' });
  }, [shownTargetId]);
  const clearReviewTarget = () => {
    if (!searchParams.has('review')) return;
    // Stay on the tab the link opened.
    setSearchParams({ tab }, { replace: true });
  };

  const onUpdateStatus = (update: StatusUpdate) =>
    updateStatus.mutateAsync(update).then(
      (result) => {
        toast({
          title: t`Reservation updated`,
          description: t`The reservation status has been updated successfully.`,
        });
        return result;
      },
      (failure: unknown) => {
        // The pickup-code dialog says why under its field; a toast would say it a second time.
        if (update.pickupCode === undefined)
          toast({
            variant: 'destructive',
            title: t`Update failed`,
            description: errorMessage(failure, t`Failed to update reservation.`),
          });
        throw failure;
      },
    );

  const CLAIM_TOASTS: Record<ClaimAction['kind'], { title: string; description: string }> = {
    claim: { title: t`Claim sent`, description: t`The borrower can accept it or dispute it.` },
    accept: { title: t`Claim accepted`, description: t`The rest of your deposit is on its way back.` },
    dispute: { title: t`Dispute sent`, description: t`A moderator will decide and tell you both.` },
  };
  // Dialogs show a refusal next to their fields; a toast says it too for the one-tap Accept.
  const onClaimAction = (action: ClaimAction) =>
    claimAction.mutateAsync(action).then(
      (result) => {
        toast(CLAIM_TOASTS[action.kind]);
        return result;
      },
      (failure: unknown) => {
        if (action.kind === 'accept')
          toast({
            variant: 'destructive',
            title: t`Update failed`,
            description: errorMessage(failure, t`Failed to update reservation.`),
          });
        throw failure;
      },
    );

  const onApprove = (id: string) =>
    approve.mutate(id, {
      onSuccess: ({ reservation }) =>
        toast({ title: t`Reservation approved`, description: approvalToast(reservation) }),
      onError: (failure) => toast(approvalFailureToast(failure, navigate)),
    });

  const onDecline = (id: string) =>
    decline.mutate(
      { id },
      {
        onSuccess: () =>
          toast({
            title: t`Reservation declined`,
            description: t`The reservation has been declined. The borrower will be notified.`,
          }),
        onError: (failure) =>
          toast({
            variant: 'destructive',
            title: t`Decline failed`,
            description: errorMessage(failure, t`Failed to decline reservation.`),
          }),
      },
    );

  const list = (items: Reservation[], empty: ReactNode) => {
    if (isPending) return <LoadingCards />;
    if (isError) {
      return (
        <Card className="px-6 py-10 text-center">
          <h2 className="text-lg font-semibold text-ink">
            <Trans>Failed to fetch reservations</Trans>
          </h2>
          <p className="mt-1 text-muted">{errorMessage(error, t`Something went wrong. Please try again.`)}</p>
          <Button className="mt-4" onClick={() => void refetch()} disabled={isFetching}>
            <Trans>Try again</Trans>
          </Button>
        </Card>
      );
    }
    if (items.length === 0) return empty;
    return (
      <ul className="space-y-4">
        {items.map((r) => (
          <li key={r.id} id={`reservation-${r.id}`} className="scroll-mt-24">
            <ReservationCard
              reservation={r}
              viewerId={userId}
              busy={busy}
              onApprove={onApprove}
              onDecline={onDecline}
              onUpdateStatus={onUpdateStatus}
              onClaimAction={onClaimAction}
            >
              {r.status === 'pending' && r.providerId === userId && r.stripePaymentIntentId && (
                <PayoutsNeededNote />
              )}
              <NextStep reservation={r} viewerId={userId} />
              <HandoverPanel reservation={r} viewerId={userId} />
              <ExtensionPanel reservation={r} viewerId={userId} />
              <ReservationReview
                reservation={r}
                viewerId={userId}
                written={reviewByReservation.get(r.id)}
                loading={myReviews.isPending}
                autoOpen={r.id === reviewTargetId}
                onDialogClosed={clearReviewTarget}
              />
            </ReservationCard>
          </li>
        ))}
      </ul>
    );
  };

  return (
    <div className="mx-auto max-w-4xl px-4 py-8">
      <h1 className="text-3xl font-bold tracking-tight text-ink">
        <Trans>My Reservations</Trans>
      </h1>
      <p className="mt-1 text-muted">
        <Trans>Manage your borrowing and lending activities</Trans>
      </p>

      <Tabs.Root value={tab} onValueChange={chooseTab} className="mt-6">
        <Tabs.List
          aria-label={t`Reservation lists`}
          className="flex w-full gap-1 rounded-xl bg-stone-100 p-1 sm:inline-flex sm:w-auto"
        >
          <Tabs.Trigger value="borrowing" className={tabClasses}>
            <Trans>Borrowing ({borrowingCount})</Trans>
            <WaitingBadge count={borrowingWaiting} />
          </Tabs.Trigger>
          <Tabs.Trigger value="lending" className={tabClasses}>
            <Trans>Lending ({lendingCount})</Trans>
            <WaitingBadge count={lendingWaiting} />
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="borrowing" className="mt-4">
          {list(
            borrowing,
            <Empty
              icon={<CalendarCheck />}
              title={t`No borrowing reservations`}
              action={
                <Button asChild>
                  <Link to={paths.browse}>
                    <Trans>Browse Items</Trans>
                  </Link>
                </Button>
              }
            >
              <Trans>You haven't reserved any items yet. Browse available items to get started!</Trans>
            </Empty>,
          )}
        </Tabs.Content>
        <Tabs.Content value="lending" className="mt-4">
          {lendingCount > 0 && (
            // What the lending earned, and where the money is, is one step away.
            <p className="mb-3 text-sm">
              <Link
                to={paths.earnings}
                className="inline-flex min-h-11 items-center gap-1.5 rounded-md font-semibold text-brand-700 underline-offset-4 hover:underline"
              >
                <Wallet className="h-4 w-4" aria-hidden="true" />
                <Trans>See your earnings</Trans>
              </Link>
            </p>
          )}
          {list(
            lending,
            <Empty
              icon={<PackageOpen />}
              title={t`No lending reservations`}
              action={
                <Button asChild>
                  <Link to={paths.listItem}>
                    <Trans>List an Item</Trans>
                  </Link>
                </Button>
              }
            >
              <Trans>
                You don't have any items reserved by others yet. List some items to start sharing!
              </Trans>
            </Empty>,
          )}
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}

/** Finishes a request after the bank's 3-D Secure page sent the borrower back here, once per payment. */
function usePaymentReturn() {
  const { t } = useLingui();
  const [searchParams, setSearchParams] = useSearchParams();
  const completePayment = useCompletePayment();
  const { mutate } = completePayment;
  const handled = useRef<string | null>(null);
  const paymentIntentId = searchParams.get('payment_intent');
  const status = searchParams.get('redirect_status');
  useEffect(() => {
    if (!paymentIntentId || handled.current === paymentIntentId) return;
    handled.current = paymentIntentId;
    // The address keeps no payment id once it is handled (a reload must not ask again).
    setSearchParams({}, { replace: true });
    if (status !== 'succeeded') {
      toast({
        variant: 'destructive',
        title: t`Payment Failed`,
        description: t`Your bank did not confirm the payment, so no request was sent. Please try again.`,
      });
      return;
    }
    mutate(paymentIntentId, {
      onSuccess: ({ created, reservation }) => {
        const lender = reservation.provider.fullName;
        const title = reservation.item.title;
        // Back from the bank for more days on a booking (already approved or out).
        if (reservation.status !== 'pending' && reservation.pendingExtension)
          toast({
            title: t`Request sent`,
            description: t`${lender} will approve or decline keeping ${title} longer.`,
          });
        else
          toast({
            title: created ? t`Reservation created!` : t`Reservation already sent`,
            description: created
              ? t`Your reservation request has been sent to the item owner.`
              : t`This payment’s request had already reached the item owner.`,
          });
      },
      onError: (failure) =>
        toast({
          variant: 'destructive',
          title: t`Reservation failed`,
          description: errorMessage(failure, t`Please try again.`),
        }),
    });
  }, [paymentIntentId, status, mutate, setSearchParams, t]);
}

function LoadingCards() {
  return (
    <div className="space-y-4" aria-busy="true">
      <span className="sr-only" role="status">
        <Trans>Loading reservations…</Trans>
      </span>
      {[0, 1, 2].map((i) => (
        <Card key={i} className="flex gap-4 p-4 sm:p-5">
          <Skeleton className="h-16 w-16 shrink-0 rounded-xl sm:h-24 sm:w-24" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-6 w-2/3" />
            <Skeleton className="h-5 w-1/2" />
            <Skeleton className="h-4 w-1/3" />
          </div>
        </Card>
      ))}
    </div>
  );
}

function Empty({
  icon,
  title,
  action,
  children,
}: {
  icon: ReactNode;
  title: string;
  action: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card className="flex flex-col items-center px-6 py-12 text-center">
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700 [&_svg]:h-6 [&_svg]:w-6">
        {icon}
      </span>
      <h2 className="mt-3 text-lg font-semibold text-ink">{title}</h2>
      <p className="mt-1 max-w-sm text-muted">{children}</p>
      <div className="mt-5">{action}</div>
    </Card>
  );
}
