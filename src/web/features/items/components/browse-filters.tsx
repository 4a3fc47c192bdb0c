import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ChangeEvent, RefObject } from 'react';
import { type ItemSort, PICKUP_METHODS, type PickupMethod } from '#shared/constants.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { inputClasses } from '../../../components/ui/input.tsx';

// Browse's filters panel (spec §2 Browse): free only, available now, a max price, the pickup method, and
// the order of the list. The page holds the values (in its address); the panel shows them and says what
// changed.

/** The panel's values as typed (the max price is the box's text; the page reads it as a number). */
export interface BrowseFilterValues {
  freeOnly: boolean;
  availableNow: boolean;
  maxPrice: string;
  pickupMethod: PickupMethod | '';
  sort: ItemSort | '';
}

const PICKUP_LABELS: Record<PickupMethod, MessageDescriptor> = {
  meetup: msg`Campus meetup`,
  locker: msg`Smart locker`,
};

const sortOptions: { value: ItemSort | ''; label: MessageDescriptor }[] = [
  { value: '', label: msg`Best match` },
  { value: 'newest', label: msg`Newest first` },
  { value: 'price-low', label: msg`Price: low to high` },
  { value: 'price-high', label: msg`Price: high to low` },
];

const pickupOptions: { value: PickupMethod | ''; label: MessageDescriptor }[] = [
  { value: '', label: msg`Any method` },
  ...PICKUP_METHODS.map((value) => ({ value, label: PICKUP_LABELS[value] })),
];

export function BrowseFilters({
  ids,
  hidden,
  values,
  maxPriceInput,
  activeFilters,
  onChange,
  onReset,
}: {
  /** The page's id prefix: the panel is `${ids}-filters`, which the Filters button controls. */
  ids: string;
  hidden: boolean;
  values: BrowseFilterValues;
  /** The max-price box, read once after hydration for what was typed before the script took over. */
  maxPriceInput?: RefObject<HTMLInputElement | null>;
  activeFilters: number;
  onChange: (change: Partial<BrowseFilterValues>) => void;
  onReset: () => void;
}) {
  const { t, i18n } = useLingui();
  return (
    <Card id={`${ids}-filters`} hidden={hidden} className="mt-3 p-4 sm:p-5">
      <fieldset>
        <legend className="sr-only">
          <Trans>Filters</Trans>
        </legend>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          <Checkbox
            id={`${ids}-free`}
            label={t`Free only`}
            checked={values.freeOnly}
            onChange={(event) => onChange({ freeOnly: event.target.checked })}
          />
          <Checkbox
            id={`${ids}-now`}
            label={t`Available now`}
            checked={values.availableNow}
            onChange={(event) => onChange({ availableNow: event.target.checked })}
          />
          <div className="space-y-1.5">
            <label htmlFor={`${ids}-max`} className="block text-sm font-semibold text-ink">
              <Trans>Max price ($)</Trans>
            </label>
            <input
              id={`${ids}-max`}
              ref={maxPriceInput}
              type="number"
              inputMode="decimal"
              min={0}
              step={0.01}
              value={values.maxPrice}
              onChange={(event) => onChange({ maxPrice: event.target.value })}
              placeholder={t`No limit`}
              className={inputClasses}
            />
          </div>
          <div className="space-y-1.5">
            <label htmlFor={`${ids}-pickup`} className="block text-sm font-semibold text-ink">
              <Trans>Pickup method</Trans>
            </label>
            <select
              id={`${ids}-pickup`}
              value={values.pickupMethod}
              onChange={(event) => onChange({ pickupMethod: event.target.value as PickupMethod | '' })}
              className={inputClasses}
            >
              {pickupOptions.map((option) => (
                <option key={option.value || 'any'} value={option.value}>
                  {i18n._(option.label)}
                </option>
              ))}
            </select>
          </div>
          <div className="space-y-1.5">
            <label htmlFor={`${ids}-sort`} className="block text-sm font-semibold text-ink">
              <Trans>Sort by</Trans>
            </label>
            <select
              id={`${ids}-sort`}
              value={values.sort}
              onChange={(event) => onChange({ sort: event.target.value as ItemSort | '' })}
              className={inputClasses}
            >
              {sortOptions.map((option) => (
                <option key={option.value || 'best'} value={option.value}>
                  {i18n._(option.label)}
                </option>
              ))}
            </select>
          </div>
        </div>
      </fieldset>
      {activeFilters > 0 && (
        <div className="mt-3 flex justify-end">
          <Button variant="ghost" onClick={onReset} className="text-brand-800">
            <Trans>Reset filters</Trans>
          </Button>
        </div>
      )}
    </Card>
  );
}

function Checkbox({
  id,
  label,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}) {
  return (
    <div className="flex items-end">
      <label
        htmlFor={id}
        className="flex min-h-11 w-full cursor-pointer items-center gap-3 rounded-lg border border-line px-3 hover:bg-stone-50 has-[:checked]:border-brand-200 has-[:checked]:bg-brand-50"
      >
        <input
          id={id}
          type="checkbox"
          checked={checked}
          onChange={onChange}
          className="h-5 w-5 shrink-0 cursor-pointer accent-brand-700"
        />
        <span className="text-sm font-semibold text-ink">{label}</span>
      </label>
    </div>
  );
}
