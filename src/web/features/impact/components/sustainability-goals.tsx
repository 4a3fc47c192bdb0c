import type { I18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { HandHelping, Target, TrendingDown, TrendingUp, Users } from 'lucide-react';
import { intlLocale } from '#shared/format.ts';
import type { ImpactDashboard } from '#shared/schemas/impact.ts';
import { Card } from '../../../components/ui/card.tsx';

// Spec §2 Dashboard 'Sustainability Goals': the monthly goal's progress bar (spec §9: 500 items,
// capped at 100 %) and the Active Community card (active sharers this month, the change from last month).

/** The month the dashboard counts, named from its first day on campus (whatever the browser's zone). */
function monthName(start: string): string {
  return new Date(Date.parse(start) + 2 * 24 * 60 * 60 * 1000).toLocaleString(intlLocale(), {
    month: 'long',
    timeZone: 'UTC',
  });
}

function changeText(
  { thisMonth, lastMonth, changePercent }: ImpactDashboard['activeSharers'],
  i18n: I18n,
): string {
  if (changePercent === null) {
    return thisMonth > 0
      ? t(i18n)`Nobody was active last month: all new this month`
      : t(i18n)`No one has shared yet this month`;
  }
  if (changePercent === 0) return t(i18n)`Same as last month (${lastMonth})`;
  const change = `${changePercent > 0 ? '+' : '−'}${Math.abs(changePercent)}`;
  return t(i18n)`${change}% from last month (${lastMonth})`;
}

export function SustainabilityGoals({ dashboard }: { dashboard: ImpactDashboard }) {
  const { t, i18n } = useLingui();
  const { month, activeSharers, communityMembers, campusName } = dashboard;
  const name = monthName(month.start);
  const done = month.itemsShared.toLocaleString(intlLocale());
  const goal = month.goal.toLocaleString(intlLocale());
  const percent = month.progressPercent;
  const active = activeSharers.thisMonth.toLocaleString(intlLocale());
  const answered = dashboard.asks.answered.toLocaleString(intlLocale());
  const borrowed = dashboard.asks.borrowed.toLocaleString(intlLocale());
  const Trend = (activeSharers.changePercent ?? 0) < 0 ? TrendingDown : TrendingUp;
  return (
    <section aria-labelledby="goals-heading">
      <h2 id="goals-heading" className="text-2xl font-bold text-ink">
        <Trans>Sustainability Goals</Trans>
      </h2>
      <div className="mt-4 grid gap-4 md:grid-cols-2">
        <Card className="p-6">
          <h3 className="flex items-center gap-2 text-lg font-semibold text-ink">
            <Target className="h-5 w-5 text-brand-700" aria-hidden="true" />
            <Trans>Monthly Sharing Goal</Trans>
          </h3>
          <p className="mt-3 text-3xl font-extrabold text-ink">
            <Trans>
              {done} <span className="text-lg font-semibold text-muted">of {goal} items</span>
            </Trans>
          </p>
          <div
            role="progressbar"
            aria-label={t`${name} sharing goal`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={month.progressPercent}
            aria-valuetext={t`${percent}% of ${goal} items`}
            className="mt-4 h-3 overflow-hidden rounded-full bg-stone-200"
          >
            <div
              className="h-full rounded-full bg-brand-600 transition-[width]"
              style={{ width: `${month.progressPercent}%` }}
            />
          </div>
          <p className="mt-2 text-sm text-muted">
            {percent >= 100 ? (
              <Trans>
                {percent}% of the goal for {name}: reached!
              </Trans>
            ) : (
              <Trans>
                {percent}% of the goal for {name}
              </Trans>
            )}
          </p>
        </Card>
        <Card className="p-6">
          <h3 className="flex items-center gap-2 text-lg font-semibold text-ink">
            <Users className="h-5 w-5 text-brand-700" aria-hidden="true" />
            <Trans>Active Community</Trans>
          </h3>
          <p className="mt-3 text-3xl font-extrabold text-ink">
            <Trans>
              {active} <span className="text-lg font-semibold text-muted">active sharers in {name}</span>
            </Trans>
          </p>
          <p className="mt-3 inline-flex items-center gap-1.5 rounded-full bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-800">
            <Trend className="h-4 w-4" aria-hidden="true" />
            {changeText(activeSharers, i18n)}
          </p>
          <p className="mt-3 text-sm text-muted">
            <Plural
              value={communityMembers}
              one={`# student in the ${campusName} community.`}
              other={`# students in the ${campusName} community.`}
            />{' '}
            <Trans>An active sharer lent or borrowed something that came back this month.</Trans>
          </p>
        </Card>
        <Card className="p-6 md:col-span-2">
          <h3 className="flex items-center gap-2 text-lg font-semibold text-ink">
            <HandHelping className="h-5 w-5 text-brand-700" aria-hidden="true" />
            <Trans>Asked for</Trans>
          </h3>
          <dl className="mt-3 grid gap-4 sm:grid-cols-2">
            <div>
              <dt className="text-sm font-semibold text-muted">
                <Trans>Asks answered</Trans>
              </dt>
              <dd className="text-3xl font-extrabold text-ink">{answered}</dd>
            </div>
            <div>
              <dt className="text-sm font-semibold text-muted">
                <Trans>Borrows from asks</Trans>
              </dt>
              <dd className="text-3xl font-extrabold text-ink">{borrowed}</dd>
            </div>
          </dl>
          <p className="mt-3 text-sm text-muted">
            <Trans>
              An ask is answered when a neighbour offers something for it; a borrow from an ask is an offered
              item whose reservation its lender approved.
            </Trans>
          </p>
        </Card>
      </div>
    </section>
  );
}
