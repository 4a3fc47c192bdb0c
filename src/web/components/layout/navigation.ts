import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Home, Leaf, type LucideIcon, Megaphone, PlusCircle, Search, UserRound } from 'lucide-react';
import { paths } from '../../paths.ts';

// The header's and the mobile bar's destinations, in one place (spec §2 Header, Mobile bottom bar).
// How It Works stays in the footer.

export interface NavEntry {
  to: string;
  /** Shown with i18n._(label), in the language of the moment. */
  label: MessageDescriptor;
  icon: LucideIcon;
  /** Spec §2: the bottom bar's List is highlighted. */
  highlight?: boolean;
}

export const headerNav: NavEntry[] = [
  { to: paths.browse, label: msg`Browse`, icon: Search },
  { to: paths.listItem, label: msg`List Item`, icon: PlusCircle },
  { to: paths.impact, label: msg`Impact`, icon: Leaf },
];

/** The mobile bottom bar; the last slot is the account (sign in, or the user's menu). */
export const mobileNav: NavEntry[] = [
  { to: paths.home, label: msg`Home`, icon: Home },
  { to: paths.browse, label: msg`Browse`, icon: Search },
  { to: paths.listItem, label: msg`List`, icon: PlusCircle, highlight: true },
  { to: paths.impact, label: msg`Impact`, icon: Leaf },
];

export const accountIcon = UserRound;

/**
 * The campus's "Asked for" board (decision 066), in the header, the bottom bar and the user menu. Only
 * for the signed in: a visitor has no campus board to see, the bottom bar keeps room for Sign In, and the
 * pages pre-rendered for visitors stay as they are.
 */
export const askedForNav: NavEntry = { to: paths.asks, label: msg`Asked for`, icon: Megaphone };

/** The header's or the bottom bar's entries for this visitor: signed in, "Asked for" follows Browse. */
export function navFor(entries: NavEntry[], signedIn: boolean): NavEntry[] {
  if (!signedIn) return entries;
  const at = entries.findIndex((entry) => entry.to === paths.browse) + 1;
  return [...entries.slice(0, at), askedForNav, ...entries.slice(at)];
}
