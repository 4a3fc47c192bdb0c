import { Target, TrendingDown, TrendingUp, Users } from 'lucide-react';
import type { ImpactDashboard } from '#shared/schemas/impact.ts';
import { Card } from '../../../components/ui/card.tsx';

// Spec §2 Dashboard 'Sustainability Goals': the monthly goal's progress bar (spec §9: 500 items,
// capped at 100 %) and the Active Community card (active sharers this month, the change from last month).

/** The month the dashboard counts, named from its first day on campus (whatever the browser's zone). */
function monthName(start: string): string {
  return new Date(Date.parse(start) + 2 * 24 * 60 * 60 * 1000).toLocaleString('en-US', {
    month: 'long',
    timeZone: 'UTC',
  });
}

function changeText({ thisMonth, lastMonth, changePercent }: ImpactDashboard['activeSharers']): string {
  if (changePercent === null) {
    return thisMonth > 0
      ? 'Nobody was active last month: all new this month'
      : 'No one has shared yet this month';
  }
  if (changePercent === 0) return `Same as last month (${lastMonth})`;
  const sign = changePercent > 0 ? '+' : '−';
  return `${sign}${Math.abs(changePercent)}% from last month (${lastMonth})`;
}

export function SustainabilityGoals({ dashboard }: { dashboard: ImpactDashboard }) {
  const { month, activeSharers, communityMembers, campusName } = dashboard;
  const name = monthName(month.start);
  const Trend = (activeSharers.changePercent ?? 0) < 0 ? TrendingDown : TrendingUp;
  return (
    <section aria-labelledby="goals-heading">
      <h2 id="goals-heading" className="text-2xl font-bold text-ink">
        Sustainability Goals
      </h2>
      <div className="mt-4 grid gap-4 md:grid-cols-2">
        <Card className="p-6">
          <h3 className="flex items-center gap-2 text-lg font-semibold text-ink">
            <Target className="h-5 w-5 text-brand-700" aria-hidden="true" />
            Monthly Sharing Goal
          </h3>
          <p className="mt-3 text-3xl font-extrabold text-ink">
            {month.itemsShared.toLocaleString('en-US')}{' '}
            <span className="text-lg font-semibold text-muted">
              of {month.goal.toLocaleString('en-US')} items
            </span>
          </p>
          <div
            role="progressbar"
            aria-label={`${name} sharing goal`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={month.progressPercent}
            aria-valuetext={`${month.progressPercent}% of ${month.goal} items`}
            className="mt-4 h-3 overflow-hidden rounded-full bg-stone-200"
          >
            <div
              className="h-full rounded-full bg-brand-600 transition-[width]"
              style={{ width: `${month.progressPercent}%` }}
            />
          </div>
          <p className="mt-2 text-sm text-muted">
            {month.progressPercent}% of the goal for {name}
            {month.progressPercent >= 100 ? ': reached!' : ''}
          </p>
        </Card>
        <Card className="p-6">
          <h3 className="flex items-center gap-2 text-lg font-semibold text-ink">
            <Users className="h-5 w-5 text-brand-700" aria-hidden="true" />
            Active Community
          </h3>
          <p className="mt-3 text-3xl font-extrabold text-ink">
            {activeSharers.thisMonth.toLocaleString('en-US')}{' '}
            <span className="text-lg font-semibold text-muted">active sharers in {name}</span>
          </p>
          <p className="mt-3 inline-flex items-center gap-1.5 rounded-full bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-800">
            <Trend className="h-4 w-4" aria-hidden="true" />
            {changeText(activeSharers)}
          </p>
          <p className="mt-3 text-sm text-muted">
            {communityMembers.toLocaleString('en-US')} {communityMembers === 1 ? 'student' : 'students'} in
            the {campusName} community. An active sharer lent or borrowed something that came back this month.
          </p>
        </Card>
      </div>
    </section>
  );
}
