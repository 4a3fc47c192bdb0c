import { Trans, useLingui } from '@lingui/react/macro';
import { CalendarDays, HandHelping, MessageCircle, Tag, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import type { RentalPeriod } from '#shared/constants.ts';
import { formatPrice } from '#shared/format.ts';
import type { Ask, AskOffer } from '#shared/schemas/asks.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { categoryLabel } from '../../../lib/category-labels.ts';
import { formatRentalPrice } from '../../../lib/item-labels.ts';
import { toast } from '../../../lib/toast.ts';
import { paths } from '../../../paths.ts';
import { ReportDialog } from '../../reports/api.ts';
import { dayRange } from '../../reservations/api.ts';
import { useProfile } from '../../users/api.ts';
import { useAskBoard, useCloseAsk, useMyAsks, useOfferForAsk } from '../api.ts';

// The "Asked for" board: the student's own asks with the offers they got (each a one-step "Reserve for
// {dates}" into the item's Reserve dialog), then their campus's open asks, newest first, each with
// "I have one" (offer one of their listings), "List one" (the List form filled in from the ask) and
// "Report" (the Report dialog items and profiles use).

export function AskBoard({ userId }: { userId: string }) {
  const { t } = useLingui();
  const mine = useMyAsks();
  const board = useAskBoard();
  const others = (board.data ?? []).filter((ask) => !ask.mine);
  const own = mine.data ?? [];
  return (
    <div className="space-y-10">
      {own.length > 0 && (
        <section aria-labelledby="my-asks-heading" className="space-y-3">
          <h2 id="my-asks-heading" className="text-xl font-semibold text-ink">
            <Trans>Your asks</Trans>
          </h2>
          <ul className="space-y-3">
            {own.map((ask) => (
              <li key={ask.id}>
                <MyAskCard ask={ask} />
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="campus-asks-heading" className="space-y-3">
        <h2 id="campus-asks-heading" className="text-xl font-semibold text-ink">
          <Trans>Asked on your campus</Trans>
        </h2>
        {board.isPending ? (
          <div className="space-y-3" role="status" aria-busy="true" aria-label={t`Loading asks`}>
            <Skeleton className="h-32 w-full" />
            <Skeleton className="h-32 w-full" />
          </div>
        ) : board.isError ? (
          <Card className="p-6 text-center">
            <p className="text-ink">
              <Trans>The board could not be loaded.</Trans>
            </p>
            <Button variant="outline" className="mt-3" onClick={() => void board.refetch()}>
              <Trans>Try again</Trans>
            </Button>
          </Card>
        ) : others.length === 0 ? (
          <Card className="p-6 text-center">
            <p className="font-medium text-ink">
              <Trans>Nobody on your campus is asking for anything right now.</Trans>
            </p>
            <p className="mt-1 text-sm text-muted">
              <Trans>When someone asks, it shows here and you can offer what you have.</Trans>
            </p>
          </Card>
        ) : (
          <ul className="space-y-3">
            {others.map((ask) => (
              <li key={ask.id}>
                <CampusAskCard ask={ask} userId={userId} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function AskFacts({ ask }: { ask: Ask }) {
  const { t } = useLingui();
  const most = formatPrice(ask.maxPrice);
  const price = Number(ask.maxPrice) === 0 ? t`Free only` : t`Up to ${most}`;
  return (
    <dl className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-stone-700">
      <div className="flex items-center gap-1">
        <dt className="sr-only">{t`Dates`}</dt>
        <CalendarDays className="h-4 w-4" aria-hidden="true" />
        <dd>{dayRange(ask.startDate, ask.endDate)}</dd>
      </div>
      <div className="flex items-center gap-1">
        <dt className="sr-only">{t`The most they would pay`}</dt>
        <Tag className="h-4 w-4" aria-hidden="true" />
        <dd>{price}</dd>
      </div>
      <div>
        <dt className="sr-only">{t`Category`}</dt>
        <dd>{categoryLabel(ask.category)}</dd>
      </div>
    </dl>
  );
}

function CampusAskCard({ ask, userId }: { ask: Ask; userId: string }) {
  const { t } = useLingui();
  const who = ask.author.firstName;
  const campus = ask.author.campusName;
  const count = ask.offerCount;
  const offeredTitles = ask.offers.map((o) => o.itemTitle).join(', ');
  return (
    <Card className="p-4">
      <h3 className="text-lg font-semibold text-ink">{ask.title}</h3>
      <p className="text-sm text-muted">{t`${who} · ${campus}`}</p>
      <AskFacts ask={ask} />
      {ask.note && <p className="mt-2 whitespace-pre-line break-words text-ink">{ask.note}</p>}
      {count > 0 && (
        <p className="mt-2 text-sm text-muted">
          {count === 1 ? t`1 offer so far` : t`${count} offers so far`}
        </p>
      )}
      {ask.offers.length > 0 && (
        <p className="mt-1 text-sm font-medium text-brand-800">
          <Trans>You offered: {offeredTitles}</Trans>
        </p>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        <OfferDialog ask={ask} userId={userId} />
        <Button asChild variant="outline">
          <Link to={paths.listForAsk(ask)}>
            <Trans>List one for this</Trans>
          </Link>
        </Button>
        {/* Others' asks only: the board leaves one's own out of this list. */}
        <ReportDialog
          target={{ kind: 'ask', askId: ask.id, name: ask.title }}
          className="sm:ms-auto min-h-11"
        />
      </div>
    </Card>
  );
}

function OfferDialog({ ask, userId }: { ask: Ask; userId: string }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <Button>
          <HandHelping className="h-5 w-5" aria-hidden="true" />
          <Trans>I have one</Trans>
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-stone-900/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-1rem)] w-[calc(100%-1rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-4 shadow-xl sm:p-6">
          {open && <OfferForm ask={ask} userId={userId} onDone={() => setOpen(false)} />}
          <Dialog.Close
            aria-label={t`Close`}
            className="absolute end-2 top-2 flex h-11 w-11 items-center justify-center rounded-lg text-stone-600 hover:bg-stone-100"
          >
            <X className="h-5 w-5" aria-hidden="true" />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function OfferForm({ ask, userId, onDone }: { ask: Ask; userId: string; onDone: () => void }) {
  const { t } = useLingui();
  const profile = useProfile(userId);
  const offer = useOfferForAsk();
  const offered = new Set(ask.offers.map((o) => o.itemId));
  const listings = (profile.data?.items ?? []).filter(
    (item) => item.isAvailable && !item.hidden && !offered.has(item.id),
  );
  const [chosen, setChosen] = useState<string | null>(null);
  const itemId = chosen ?? listings[0]?.id ?? '';
  const title = ask.title;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!itemId) return;
    offer.mutate(
      { askId: ask.id, itemId },
      {
        onSuccess: ({ offer: made }) => {
          const item = made.itemTitle;
          toast({
            title: t`Offer sent`,
            description: t`We told them you have ${item}, in your chat about it.`,
          });
          onDone();
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} className="space-y-4">
      <div className="pe-10">
        <Dialog.Title className="text-xl font-bold text-ink">
          <Trans>Offer one of your listings</Trans>
        </Dialog.Title>
        <Dialog.Description className="mt-1 text-sm text-stone-700">
          <Trans>For "{title}". We send your offer in a chat message about the item you choose.</Trans>
        </Dialog.Description>
      </div>
      {profile.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : listings.length === 0 ? (
        <p className="text-ink">
          <Trans>You have no available listings to offer. List one for this ask instead.</Trans>
        </p>
      ) : (
        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold text-ink">
            <Trans>Your listings</Trans>
          </legend>
          {listings.map((item) => (
            <label
              key={item.id}
              className="flex min-h-11 items-center gap-3 rounded-xl border border-line px-3 py-2 text-ink has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
            >
              <input
                type="radio"
                name="offer-item"
                value={item.id}
                checked={itemId === item.id}
                onChange={() => setChosen(item.id)}
                className="h-5 w-5 accent-brand-700"
              />
              <span className="min-w-0 flex-1 break-words">{item.title}</span>
              <span className="text-sm text-muted">
                {formatRentalPrice(item.rentalPrice, item.rentalPeriod)}
              </span>
            </label>
          ))}
        </fieldset>
      )}
      {offer.error && (
        <p role="alert" className="text-sm font-medium text-danger">
          {errorMessage(offer.error, t`Please try again.`)}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={!itemId || offer.isPending}>
          {offer.isPending ? t`Sending...` : t`Offer this item`}
        </Button>
        <Button asChild variant="outline">
          <Link to={paths.listForAsk(ask)}>
            <Trans>List a new item</Trans>
          </Link>
        </Button>
      </div>
    </form>
  );
}

function MyAskCard({ ask }: { ask: Ask }) {
  const { t } = useLingui();
  const close = useCloseAsk();
  const open = ask.status === 'open' && !ask.expired;
  const title = ask.title;
  const onClose = () =>
    close.mutate(ask.id, {
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: t`Could not close the ask`,
          description: errorMessage(error, t`Please try again.`),
        }),
    });
  const state = open
    ? t`Open`
    : ask.closeReason === 'reserved'
      ? t`Closed: reserved from an offer`
      : ask.status === 'closed'
        ? t({ message: 'Closed', context: 'an ask' })
        : t`Expired`;
  return (
    <Card className="p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="text-lg font-semibold text-ink">{ask.title}</h3>
        <span
          className={
            open
              ? 'rounded-full bg-brand-50 px-2 py-0.5 text-sm font-medium text-brand-800'
              : 'rounded-full bg-stone-100 px-2 py-0.5 text-sm font-medium text-stone-700'
          }
        >
          {state}
        </span>
      </div>
      <AskFacts ask={ask} />
      {ask.offers.length === 0 ? (
        open && (
          <p className="mt-3 text-sm text-muted">
            <Trans>
              No offers yet. We tell students whose listings match, and you hear as soon as someone offers.
            </Trans>
          </p>
        )
      ) : (
        <ul className="mt-3 space-y-2" aria-label={t`Offers for ${title}`}>
          {ask.offers.map((offer) => (
            <OfferLine key={offer.id} ask={ask} offer={offer} open={open} />
          ))}
        </ul>
      )}
      {open && (
        <Button
          variant="link"
          className="mt-3 min-h-11 text-stone-700"
          onClick={onClose}
          disabled={close.isPending}
        >
          <Trans>Close this ask</Trans>
        </Button>
      )}
    </Card>
  );
}

function OfferLine({ ask, offer, open }: { ask: Ask; offer: AskOffer; open: boolean }) {
  const { t } = useLingui();
  const days = dayRange(ask.startDate, ask.endDate);
  const lender = offer.lenderFirstName;
  const item = offer.itemTitle;
  const price = formatRentalPrice(offer.rentalPrice, offer.rentalPeriod as RentalPeriod | null);
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-xl border border-line bg-stone-50 px-3 py-2">
      <span className="min-w-0 flex-1">
        <Link
          to={paths.item(offer.itemId)}
          className="font-medium text-ink underline-offset-4 hover:underline"
        >
          {offer.itemTitle}
        </Link>
        <span className="block text-sm text-muted">{t`${lender} · ${price}`}</span>
      </span>
      <span className="flex flex-wrap items-center gap-2">
        {offer.conversationId && (
          <Button asChild variant="ghost" size="sm" className="min-h-11">
            <Link to={paths.chat(offer.conversationId)} aria-label={t`Chat with ${lender} about ${item}`}>
              <MessageCircle className="h-4 w-4" aria-hidden="true" />
              <Trans>Chat</Trans>
            </Link>
          </Button>
        )}
        {open && (
          <Button asChild size="sm" className="min-h-11">
            <Link to={paths.reserveItem(offer.itemId, { startDate: ask.startDate, endDate: ask.endDate })}>
              <Trans>Reserve for {days}</Trans>
            </Link>
          </Button>
        )}
      </span>
    </li>
  );
}
