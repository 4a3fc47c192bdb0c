import { Lock, Trophy } from 'lucide-react';
import { IMPACT_ACHIEVEMENTS } from '#shared/impact.ts';
import type { Achievement } from '#shared/schemas/impact.ts';
import { Card } from '../../../components/ui/card.tsx';
import { cn } from '../../../lib/cn.ts';

// Spec §2 Dashboard 'Campus Achievements' with spec §9's thresholds, unlocked by the campus's figures.

function progress(achievement: Achievement): string {
  const metric = IMPACT_ACHIEVEMENTS.find((a) => a.id === achievement.id)?.metric;
  // In kilograms: tons with one decimal would round 980 kg up to the 1.0T it has not reached.
  if (metric === 'co2SavedKg')
    return `${Math.floor(achievement.current).toLocaleString('en-US')} of ${achievement.threshold.toLocaleString('en-US')} kg CO₂`;
  const unit = metric === 'members' ? 'members' : 'items';
  return `${achievement.current.toLocaleString('en-US')} of ${achievement.threshold.toLocaleString('en-US')} ${unit}`;
}

export function CampusAchievements({ achievements }: { achievements: Achievement[] }) {
  return (
    <section aria-labelledby="achievements-heading">
      <h2 id="achievements-heading" className="text-2xl font-bold text-ink">
        Campus Achievements
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
                    {achievement.unlocked ? 'Unlocked' : 'Locked'}
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
                <p className="mt-1 text-xs font-semibold text-muted">{progress(achievement)}</p>
              </Card>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
