import { plural, t } from '@lingui/core/macro';
import { intlLocale } from '#shared/format.ts';

/**
 * Browse's result count in the active language. Spec: '{n} items found'; the server counts up to 1,000
 * matches and then says so (`totalCapped`, decision 019), shown as '1,000+ items found'.
 */
export function itemsFound(total: number, capped: boolean): string {
  const count = total.toLocaleString(intlLocale());
  if (capped) return t`${count}+ items found`;
  return plural(total, { one: `${count} item found`, other: `${count} items found` });
}
