import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { type Quote, toCents } from '#shared/booking/pricing.ts';
import type { RentalPeriod } from '#shared/constants.ts';
import { formatMoney, formatPrice } from '#shared/format.ts';
import type { Item } from '#shared/schemas/items.ts';
import { dayLabel } from '../dates.ts';
import { CancellationPolicyNote } from './cancellation-policy-note.tsx';
import type { DateRange } from './date-range-picker.tsx';

// What a reservation costs, as the reserve dialog shows it: the breakdown beside the dates, and the
// order summary beside the card form.

/** The item fields the reserve dialog needs. */
export type ReservableItem = Pick<
  Item,
  | 'id'
  | 'title'
  | 'rentalPrice'
  | 'rentalPeriod'
  | 'depositAmount'
  | 'isAvailable'
  | 'campus'
  | 'user'
  | 'cancellationPolicy'
>;

/** Spec §2: rental plus the refundable deposit, the total and the borrowing period. */
export function CostBreakdown({
  item,
  price,
  startDate,
}: {
  item: ReservableItem;
  price: Quote;
  startDate: string;
}) {
  const { t } = useLingui();
  const days = price.days;
  /** '$5.00 / day': the item's price per rental period. */
  const ratePer = (price: string, period: RentalPeriod) =>
    period === 'day' ? t`${price} / day` : period === 'week' ? t`${price} / week` : t`${price} / month`;
  const rate =
    toCents(item.rentalPrice) && item.rentalPeriod
      ? ratePer(formatPrice(item.rentalPrice), item.rentalPeriod)
      : toCents(item.rentalPrice)
        ? t`flat fee`
        : t`free`;
  return (
    <section aria-labelledby="cost-heading" className="rounded-xl bg-stone-50 p-4">
      <h3 id="cost-heading" className="font-semibold text-ink">
        <Trans>Cost breakdown</Trans>
      </h3>
      <dl className="mt-3 space-y-2 text-sm">
        <Row label={t`Rental (${rate})`} value={formatMoney(price.rentalCents)} />
        {price.serviceFeeCents > 0 && (
          <Row label={t`Service fee`} value={formatMoney(price.serviceFeeCents)} />
        )}
        <Row label={t`Deposit (refundable)`} value={formatMoney(price.depositCents)} />
        <Row label={t`Total`} value={formatMoney(price.totalCents)} strong />
      </dl>
      {price.serviceFeeCents > 0 && (
        <p className="mt-2 text-xs text-muted">
          <Trans>
            The service fee keeps CampusLoop running. It comes back in the same proportion as the rental when
            the rental is refunded.
          </Trans>
        </p>
      )}
      <p className="mt-3 text-sm text-stone-700">
        <Trans>
          Borrowing period: <Plural value={days} one="# day" other="# days" />
        </Trans>
      </p>
      {price.depositCents > 0 && (
        <p className="mt-1 text-xs text-muted">
          <Trans>The deposit is refunded when the item comes back in good condition.</Trans>
        </p>
      )}
      <div className="mt-3 border-t border-line pt-3">
        <CancellationPolicyNote
          policy={item.cancellationPolicy}
          booking={{ startDate, rentalCents: price.rentalCents, depositCents: price.depositCents }}
        />
      </div>
    </section>
  );
}

export function OrderSummary({ title, range, price }: { title: string; range: DateRange; price: Quote }) {
  const { t } = useLingui();
  const from = dayLabel(range.startDate, 'medium');
  const to = dayLabel(range.endDate, 'medium');
  const days = price.days;
  return (
    <section aria-labelledby="summary-heading" className="rounded-xl bg-stone-50 p-4">
      <h3 id="summary-heading" className="font-semibold text-ink">
        <Trans>Order summary</Trans>
      </h3>
      <p className="mt-2 break-words font-medium text-ink">{title}</p>
      <p className="text-sm text-stone-700">
        <Trans>
          {from} – {to} (<Plural value={days} one="# day" other="# days" />)
        </Trans>
      </p>
      <dl className="mt-3 space-y-2 text-sm">
        <Row label={t`Rental`} value={formatMoney(price.rentalCents)} />
        {price.serviceFeeCents > 0 && (
          <Row label={t`Service fee`} value={formatMoney(price.serviceFeeCents)} />
        )}
        <Row label={t`Deposit (refundable)`} value={formatMoney(price.depositCents)} />
        <Row label={t`Total`} value={formatMoney(price.totalCents)} strong />
      </dl>
    </section>
  );
}

function Row({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div
      className={
        strong
          ? 'flex justify-between gap-3 border-t border-line pt-2 text-base font-bold text-ink'
          : 'flex justify-between gap-3'
      }
    >
      <dt className={strong ? '' : 'text-stone-700'}>{label}</dt>
      <dd className="tabular-nums">{value}</dd>
    </div>
  );
}
