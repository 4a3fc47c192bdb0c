import { Home, Leaf, type LucideIcon, PlusCircle, Search, UserRound } from 'lucide-react';
import { paths } from '../../paths.ts';

// The header's and the mobile bar's destinations, in one place (spec §2 Header, Mobile bottom bar).
// How It Works stays in the footer.

export interface NavEntry {
  to: string;
  label: string;
  icon: LucideIcon;
  /** Spec §2: the bottom bar's List is highlighted. */
  highlight?: boolean;
}

export const headerNav: NavEntry[] = [
  { to: paths.browse, label: 'Browse', icon: Search },
  { to: paths.listItem, label: 'List Item', icon: PlusCircle },
  { to: paths.impact, label: 'Impact', icon: Leaf },
];

/** The mobile bottom bar; the last slot is the account (sign in, or the user's menu). */
export const mobileNav: NavEntry[] = [
  { to: paths.home, label: 'Home', icon: Home },
  { to: paths.browse, label: 'Browse', icon: Search },
  { to: paths.listItem, label: 'List', icon: PlusCircle, highlight: true },
  { to: paths.impact, label: 'Impact', icon: Leaf },
];

export const accountIcon = UserRound;
