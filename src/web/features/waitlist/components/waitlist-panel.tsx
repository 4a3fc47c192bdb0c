import { Trans, useLingui } from '@lingui/react/macro';
import { BellRing, CalendarCheck, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import type { Item } from '#shared/schemas/items.ts';
import type { WaitlistEntry } from '#shared/schemas/waitlist.ts';
import { Button } from '../../../components/ui/button.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { useWaitlistParam } from '../../../lib/use-waitlist-param.ts';
import { paths } from '../../../paths.ts';
import { useSession } from '../../auth/api.ts';
import { dayRange, openRequestsFor, useAvailability, useReservations } from '../../reservations/api.ts';
import { useJoinWaitlist, useLeaveWaitlist, useWaitlist } from '../api.ts';

// On the item page, a student of the item's campus who finds the days they need booked
// (or the item not offered now) asks to be told when they free up, sees what they wait for ("We'll tell
// you when Nov 27–29 frees up · Leave waitlist") and, once told, reserves those dates from here.

type WaitlistItem = Pick<Item, 'id' | 'title' | 'userId' | 'campus' | 'isAvailable'>;

export function WaitlistPanel({ item }: { item: WaitlistItem }) {
  const { t } = useLingui();
  const { user } = useSession();
  const mayWait = Boolean(user && user.id !== item.userId && user.campus === item.campus);
  const waitlist = useWaitlist(item.id, mayWait);
  const reservations = useReservations(mayWait);
  if (!mayWait || !user) return null;
  // Told dates the student has since requested are said by their request's line instead.
  const requested = openRequestsFor(reservations.data, item.id, user.id);
  const entries = (waitlist.data ?? []).filter(
    (e) =>
      e.status === 'waiting' ||
      !requested.some((r) => r.startDate === e.startDate && r.endDate === e.endDate),
  );
  return (
    <div className="space-y-2 sm:col-span-2">
      {entries.length > 0 && (
        <ul className="space-y-2" aria-label={t`Your waitlist for this item`}>
          {entries.map((entry) => (
            <WaitlistLine key={entry.id} itemId={item.id} entry={entry} />
          ))}
        </ul>
      )}
      <NotifyMeDialog item={item} prominent={!item.isAvailable} />
    </div>
  );
}

function WaitlistLine({ itemId, entry }: { itemId: string; entry: WaitlistEntry }) {
  const { t } = useLingui();
  const leave = useLeaveWaitlist(itemId);
  const days = dayRange(entry.startDate, entry.endDate);
  const told = entry.status === 'notified';
  const onLeave = () =>
    leave.mutate(entry.id, {
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: t`Could not leave the waitlist`,
          description: errorMessage(error, t`Please try again.`),
        }),
    });
  return (
    <li
      className={
        told
          ? 'flex flex-wrap items-center gap-x-3 gap-y-1 rounded-xl border border-brand-200 bg-brand-50 px-3 py-2'
          : 'flex flex-wrap items-center gap-x-3 gap-y-1 rounded-xl border border-line bg-stone-50 px-3 py-2'
      }
    >
      {told ? (
        <CalendarCheck className="h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
      ) : (
        <BellRing className="h-5 w-5 shrink-0 text-stone-700" aria-hidden="true" />
      )}
      <span className="min-w-0 flex-1 font-medium text-ink">
        {told ? t`${days} is free now` : t`We'll tell you when ${days} frees up`}
      </span>
      <span className="flex items-center gap-1">
        {told && (
          <Button asChild variant="link" size="sm">
            <Link to={paths.reserveItem(itemId, entry)}>
              <Trans>Reserve these dates</Trans>
            </Link>
          </Button>
        )}
        <Button
          variant="link"
          size="sm"
          className="min-h-11 text-stone-700"
          onClick={onLeave}
          disabled={leave.isPending}
          aria-label={told ? t`Dismiss ${days}` : t`Leave waitlist for ${days}`}
        >
          {told ? t`Dismiss` : t`Leave waitlist`}
        </Button>
      </span>
    </li>
  );
}

function NotifyMeDialog({ item, prominent }: { item: WaitlistItem; prominent: boolean }) {
  const { t } = useLingui();
  // Open while the address says ?waitlist=1: the Reserve dialog hands over to it.
  const [open, setOpen] = useWaitlistParam();
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <Button size="lg" variant={prominent ? 'primary' : 'outline'} className="w-full">
          <BellRing className="h-5 w-5" aria-hidden="true" />
          <Trans>Notify me when available</Trans>
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-stone-900/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-1rem)] w-[calc(100%-1rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-4 shadow-xl sm:p-6">
          {open && <NotifyMeForm item={item} onDone={() => setOpen(false)} />}
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

/** Starts on the soonest booked or requested days, the likeliest ones wanted. */
function NotifyMeForm({ item, onDone }: { item: WaitlistItem; onDone: () => void }) {
  const { t } = useLingui();
  const availability = useAvailability(item.id);
  const join = useJoinWaitlist(item.id);
  const firstBooked = availability.data
    ? [...availability.data.booked, ...(availability.data.requested ?? [])]
        .filter((b) => b.endDate >= availability.data!.today)
        .sort((x, y) => x.startDate.localeCompare(y.startDate))[0]
    : undefined;
  const [startDate, setStartDate] = useState<string | null>(null);
  const [endDate, setEndDate] = useState<string | null>(null);
  const start = startDate ?? firstBooked?.startDate ?? '';
  const end = endDate ?? firstBooked?.endDate ?? '';
  const issues = join.error instanceof ApiError ? (join.error.issues ?? []) : [];
  const startError = issues.find((i) => i.path === 'startDate')?.message;
  const endError = issues.find((i) => i.path === 'endDate')?.message;
  const formError =
    join.error && !startError && !endError ? errorMessage(join.error, t`Please try again.`) : null;
  const datesFree = join.error instanceof ApiError && join.error.code === 'DATES_AVAILABLE';

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    join.mutate(
      { startDate: start, endDate: end },
      {
        onSuccess: ({ entry }) => {
          const days = dayRange(entry.startDate, entry.endDate);
          toast({
            title: t`You're on the waitlist`,
            description: t`We'll tell you when ${days} frees up.`,
          });
          onDone();
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <div className="pe-10">
        <Dialog.Title className="text-xl font-bold text-ink">
          <Trans>Notify me when available</Trans>
        </Dialog.Title>
        <Dialog.Description className="mt-1 text-sm text-stone-700">
          <Trans>
            Booked or unavailable on the days you need? Choose them and we'll tell you in your notifications
            when they free up. Whoever asked first is told first.
          </Trans>
        </Dialog.Description>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id="waitlist-start" label={t`Start date`} error={startError}>
          <Input
            type="date"
            required
            min={availability.data?.today}
            value={start}
            onChange={(e) => setStartDate(e.target.value)}
            {...describedBy('waitlist-start', startError)}
          />
        </Field>
        <Field id="waitlist-end" label={t`End date`} error={endError}>
          <Input
            type="date"
            required
            min={start || availability.data?.today}
            value={end}
            onChange={(e) => setEndDate(e.target.value)}
            {...describedBy('waitlist-end', endError)}
          />
        </Field>
      </div>
      {formError && (
        <p role="alert" className="text-sm font-medium text-danger">
          {formError}{' '}
          {datesFree && (
            <Link
              to={paths.reserveItem(item.id, { startDate: start, endDate: end })}
              onClick={onDone}
              className="underline"
            >
              <Trans>Reserve them</Trans>
            </Link>
          )}
        </p>
      )}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Dialog.Close asChild>
          <Button variant="outline">
            <Trans>Cancel</Trans>
          </Button>
        </Dialog.Close>
        <Button type="submit" disabled={join.isPending || !start || !end}>
          {join.isPending ? t`Adding...` : t`Notify me`}
        </Button>
      </div>
    </form>
  );
}
