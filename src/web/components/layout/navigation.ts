import { BookOpen, Home, type LucideIcon, PlusCircle, Search, UserRound } from 'lucide-react';
import { paths } from '../../paths.ts';

// The header's and the mobile bar's destinations, in one place. Spec §2 names Browse, List Item and
// Impact here; each joins these lists in the same change as its page.

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
  { to: paths.about, label: 'How It Works', icon: BookOpen },
];

/** The mobile bottom bar; the last slot is the account (sign in, or the user's menu). */
export const mobileNav: NavEntry[] = [
  { to: paths.home, label: 'Home', icon: Home },
  { to: paths.browse, label: 'Browse', icon: Search },
  { to: paths.listItem, label: 'List', icon: PlusCircle, highlight: true },
  { to: paths.about, label: 'About', icon: BookOpen },
];

export const accountIcon = UserRound;
