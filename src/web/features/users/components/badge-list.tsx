import { Award, GraduationCap, HandHeart, type LucideIcon, Sprout, Trophy, Users } from 'lucide-react';
import type { BadgeType } from '#shared/badges.ts';
import type { Badge } from '#shared/schemas/users.ts';

// Spec §2 Profile badges: each with its icon, name and what it was earned for, in words a screen reader
// reads too (the icon is decoration).

const BADGE_ICONS: Record<BadgeType, LucideIcon> = {
  first_lend: HandHeart,
  ten_lends: Users,
  top_rated: Trophy,
  co2_100kg: Sprout,
  verified_student: GraduationCap,
};

export function BadgeList({ badges, headingId }: { badges: readonly Badge[]; headingId: string }) {
  return (
    <ul aria-labelledby={headingId} className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
      {badges.map((badge) => {
        const Icon = BADGE_ICONS[badge.badgeType as BadgeType] ?? Award;
        return (
          <li
            key={badge.id}
            className="flex items-start gap-3 rounded-xl border border-amber-200 bg-amber-50 p-3"
          >
            <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-amber-100 text-amber-800">
              <Icon className="h-5 w-5" aria-hidden="true" />
            </span>
            <span className="min-w-0">
              <span className="block font-semibold text-ink">{badge.name}</span>
              {badge.description && <span className="block text-sm text-stone-700">{badge.description}</span>}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
