import type { I18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Lock, Trophy } from 'lucide-react';
import { intlLocale } from '#shared/format.ts';
import { IMPACT_ACHIEVEMENTS } from '#shared/impact.ts';
import type { Achievement } from '#shared/schemas/impact.ts';
import { Card } from '../../../components/ui/card.tsx';
import { cn } from '../../../lib/cn.ts';

// Spec §2 Dashboard 'Campus Achievements' with spec §9's thresholds, unlocked by the campus's figures.

/** '12 of 50 items', in the language `i18n` speaks. */
function progress(achievement: Achievement, i18n: I18n): string {
  const metric = IMPACT_ACHIEVEMENTS.find((a) => a.id === achievement.id)?.metric;
  const goal = achievement.threshold.toLocaleString(intlLocale());
  // In kilograms: tons with one decimal would round 980 kg up to the 1.0T it has not reached.
  if (metric === 'co2SavedKg') {
    const current = Math.floor(achievement.current).toLocaleString(intlLocale());
    return t(i18n)`${current} of ${goal} kg CO₂`;
  }
  const current = achievement.current.toLocaleString(intlLocale());
  // Every goal is a round number above one: the unit is always plural.
  return metric === 'members' ? t(i18n)`${current} of ${goal} members` : t(i18n)`${current} of ${goal} items`;
}

export function CampusAchievements({ achievements }: { achievements: Achievement[] }) {
  const { i18n } = useLingui();
  return (
    <section aria-labelledby="achievements-heading">
      <h2 id="achievements-heading" className="text-2xl font-bold text-ink">
        <Trans>Campus Achievements</Trans>
      </h2>
      <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {achievements.map((achievement) => {
          const percent = Math.min(100, (achievement.current / achievement.threshold) * 100);
          return (
            <li key={achievement.id}>
              <Card
                className={cn(
                  'h-full p-5',
                  achievement.unlocked ? 'border-amber-300 bg-amber-50' : 'bg-stone-50',
                )}
              >
                <div className="flex items-start justify-between gap-2">
                  <span
                    className={cn(
                      'flex h-11 w-11 items-center justify-center rounded-full',
                      achievement.unlocked ? 'bg-amber-400 text-amber-950' : 'bg-stone-200 text-stone-600',
                    )}
                  >
                    {achievement.unlocked ? (
                      <Trophy className="h-6 w-6" aria-hidden="true" />
                    ) : (
                      <Lock className="h-5 w-5" aria-hidden="true" />
                    )}
                  </span>
                  <span
                    className={cn(
                      'rounded-full px-2 py-0.5 text-xs font-bold',
                      achievement.unlocked ? 'bg-amber-200 text-amber-950' : 'bg-stone-200 text-stone-700',
                    )}
                  >
                    {achievement.unlocked ? <Trans>Unlocked</Trans> : <Trans>Locked</Trans>}
                  </span>
                </div>
                <h3 className="mt-3 font-semibold text-ink">{achievement.title}</h3>
                <p className="text-sm text-muted">{achievement.description}</p>
                <div className="mt-3 h-2 overflow-hidden rounded-full bg-stone-200" aria-hidden="true">
                  <div
                    className={cn(
                      'h-full rounded-full',
                      achievement.unlocked ? 'bg-amber-500' : 'bg-brand-600',
                    )}
                    style={{ width: `${percent}%` }}
                  />
                </div>
                <p className="mt-1 text-xs font-semibold text-muted">{progress(achievement, i18n)}</p>
              </Card>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
