import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { Category } from '#shared/constants.ts';

// The categories' names in the active language, apart from item-labels.ts: Home's category
// bar needs only these, and item-labels.ts brings date-fns into the first script every page loads.

export const CATEGORY_MESSAGES: Record<Category, MessageDescriptor> = {
  clothing: msg`Clothing`,
  tools: msg`Tools`,
  books: msg`Books`,
  kitchen: msg`Kitchen`,
  professional: msg`Professional`,
  electronics: msg`Electronics`,
  furniture: msg`Furniture`,
  other: msg({ message: 'Other', context: 'category' }),
};

export const categoryLabel = (category: Category): string => i18n._(CATEGORY_MESSAGES[category]);
