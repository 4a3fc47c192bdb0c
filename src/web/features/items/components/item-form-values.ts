import { zodResolver } from '@hookform/resolvers/zod';
import { t as translate } from '@lingui/core/macro';
import type { FieldErrors, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { type CancellationPolicy, DEFAULT_CANCELLATION_POLICY } from '#shared/booking/cancellation-policy.ts';
import { campusToday } from '#shared/calendar.ts';
import {
  type Category,
  type Condition,
  DEFAULT_CAMPUS_TIME_ZONE,
  type PickupMethod,
  type RentalPeriod,
} from '#shared/constants.ts';
import { type Item, type ItemInput, itemInput } from '#shared/schemas/items.ts';
import { amountOf } from '../../../lib/item-labels.ts';
import { ALL_DAYS } from './day-selector.tsx';

// What the item form holds and hands over (spec §4 Create/edit item form): its values, the payload
// built from them, and the check of both with the server's own schema (itemInput).

/** What the form holds: the payload's fields as typed, plus the two switches. */
export interface ItemFormValues {
  title: string;
  description: string;
  category: Category | '';
  condition: Condition | '';
  chargeFee: boolean;
  rentalPrice: string;
  rentalPeriod: RentalPeriod;
  requireDeposit: boolean;
  depositAmount: string;
  images: string[];
  availableFrom: string;
  availableUntil: string;
  availableDays: number[];
  pickupMethod: PickupMethod;
  pickupLocation: string;
  cancellationPolicy: CancellationPolicy;
}

/** What the form hands over on a valid submit: itemInput's parsed output, ready to send. */
export type ItemPayload = z.output<typeof itemInput>;

export const SERVER_FIELDS = [
  'title',
  'description',
  'category',
  'condition',
  'rentalPrice',
  'rentalPeriod',
  'depositAmount',
  'images',
  'availableFrom',
  'availableUntil',
  'availableDays',
  'pickupMethod',
  'pickupLocation',
  'cancellationPolicy',
];

/** Today on the campus calendar, which is what the server checks availability against. */
export function todayLocal(): string {
  return campusToday(DEFAULT_CAMPUS_TIME_ZONE).date;
}

export function emptyItemValues(): ItemFormValues {
  return {
    title: '',
    description: '',
    category: '',
    condition: 'good',
    chargeFee: false,
    rentalPrice: '',
    rentalPeriod: 'day',
    requireDeposit: false,
    depositAmount: '',
    images: [],
    availableFrom: todayLocal(),
    availableUntil: '',
    availableDays: [...ALL_DAYS],
    pickupMethod: 'meetup',
    pickupLocation: '',
    cancellationPolicy: DEFAULT_CANCELLATION_POLICY,
  };
}

/** Spec §4: on edit the switches start on only when the stored amount is above 0. */
export function itemToValues(item: Item): ItemFormValues {
  const chargeFee = amountOf(item.rentalPrice) > 0;
  const requireDeposit = amountOf(item.depositAmount) > 0;
  return {
    title: item.title,
    description: item.description,
    category: item.category,
    condition: item.condition,
    chargeFee,
    rentalPrice: chargeFee ? (item.rentalPrice ?? '') : '',
    rentalPeriod: item.rentalPeriod ?? 'day',
    requireDeposit,
    depositAmount: requireDeposit ? (item.depositAmount ?? '') : '',
    images: [...item.images],
    availableFrom: item.availableFrom.slice(0, 10),
    availableUntil: item.availableUntil?.slice(0, 10) ?? '',
    availableDays: item.availableDays.length ? [...item.availableDays].sort((a, b) => a - b) : [...ALL_DAYS],
    // The smart locker is 'Coming Soon': an older locker item is kept as it is.
    pickupMethod: item.pickupMethod,
    pickupLocation: item.pickupLocation ?? '',
    cancellationPolicy: item.cancellationPolicy ?? DEFAULT_CANCELLATION_POLICY,
  };
}

/** Spec §4: with the fee switch off, price and period are dropped; with the deposit switch off, the deposit. */
export function toItemInput(values: ItemFormValues): ItemInput {
  return {
    title: values.title,
    description: values.description,
    category: values.category as Category,
    condition: values.condition as Condition,
    ...(values.chargeFee ? { rentalPrice: values.rentalPrice, rentalPeriod: values.rentalPeriod } : {}),
    ...(values.requireDeposit ? { depositAmount: values.depositAmount } : {}),
    images: values.images,
    availableFrom: values.availableFrom,
    availableUntil: values.availableUntil || null,
    availableDays: values.availableDays,
    pickupMethod: values.pickupMethod,
    pickupLocation: values.pickupLocation,
    cancellationPolicy: values.cancellationPolicy,
  };
}

const schemaResolver = zodResolver(itemInput);

/** itemInput on the payload the form would send, plus: a switched-on fee or deposit needs an amount. */
export const itemFormResolver: Resolver<ItemFormValues, unknown, ItemPayload> = async (
  values,
  context,
  options,
) => {
  const result = await schemaResolver(toItemInput(values), context, options as never);
  const errors: FieldErrors<ItemFormValues> = { ...(result.errors as FieldErrors<ItemFormValues>) };
  if (values.chargeFee && !errors.rentalPrice && amountOf(values.rentalPrice) === 0) {
    errors.rentalPrice = {
      type: 'required',
      message: translate`Enter a rental price, or turn off the rental fee`,
    };
  }
  if (values.requireDeposit && !errors.depositAmount && amountOf(values.depositAmount) === 0) {
    errors.depositAmount = {
      type: 'required',
      message: translate`Enter a deposit amount, or turn off the deposit`,
    };
  }
  if (Object.keys(errors).length > 0) return { values: {}, errors };
  return { values: result.values as ItemPayload, errors: {} };
};
