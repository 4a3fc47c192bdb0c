import { BookOpen, Home, type LucideIcon, ShieldCheck, UserRound } from 'lucide-react';
import { paths } from '../../paths.ts';

// The header's and the mobile bar's destinations, in one place. Spec §2 names Browse, List Item and
// Impact here; each joins these lists in the same change as its page.

export interface NavEntry {
  to: string;
  label: string;
  icon: LucideIcon;
}

export const headerNav: NavEntry[] = [
  { to: paths.about, label: 'How It Works', icon: BookOpen },
  { to: paths.safety, label: 'Safety', icon: ShieldCheck },
];

/** The mobile bottom bar; the last slot is the account (sign in, or the user's menu). */
export const mobileNav: NavEntry[] = [
  { to: paths.home, label: 'Home', icon: Home },
  { to: paths.about, label: 'How It Works', icon: BookOpen },
  { to: paths.safety, label: 'Safety', icon: ShieldCheck },
];

export const accountIcon = UserRound;
