import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { BadgeCheck, Ban, CreditCard, MapPin, MessageSquare, PhoneCall, TriangleAlert } from 'lucide-react';
import type { ComponentType, SVGProps } from 'react';
import { Link } from 'react-router';
import { StaticPage } from '../components/layout/static-page.tsx';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { paths } from '../paths.ts';

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

const guidelines: { title: MessageDescriptor; icon: Icon; points: MessageDescriptor[] }[] = [
  {
    title: msg`Verified Campus Community`,
    icon: BadgeCheck,
    points: [
      msg`Every member signs up with a verified university email address.`,
      msg`Check a member’s profile, ratings and reviews before you agree to an exchange.`,
      msg`Never share your account or let someone else use your login.`,
      msg`Report profiles or listings that seem fake or suspicious.`,
    ],
  },
  {
    title: msg`Safe Meeting Practices`,
    icon: MapPin,
    points: [
      msg`Meet in public, well-lit campus spots such as a library lobby or student union.`,
      msg`Arrange handovers during the daytime whenever you can.`,
      msg`Tell a friend where you are going, who you are meeting and when.`,
      msg`Inspect the item together before you take or hand it over.`,
    ],
  },
  {
    title: msg`Secure Payments`,
    icon: CreditCard,
    points: [
      msg`Pay only in the app, by card, so every fee and deposit is on record.`,
      msg`Deposits are held during the rental and refunded when the item is returned.`,
      msg`Never pay with cash, gift cards or any other off-platform method.`,
      msg`Be wary of anyone who asks you to complete a payment outside CampusLoop.`,
    ],
  },
  {
    title: msg`Communication Guidelines`,
    icon: MessageSquare,
    points: [
      msg`Keep your conversations in the in-app chat so there is a record if something goes wrong.`,
      msg`Be respectful and clear about pickup times, condition and return dates.`,
      msg`Don’t share personal financial information such as bank details or card numbers.`,
    ],
  },
];

const prohibited: MessageDescriptor[] = [
  msg`Weapons or dangerous items`,
  msg`Illegal substances or paraphernalia`,
  msg`Counterfeit or stolen goods`,
  msg`Items violating university policies`,
  msg`Hazardous materials`,
  msg`Items requiring special licenses`,
];

export default function SafetyPage() {
  const { t, i18n } = useLingui();
  return (
    <StaticPage
      title={t`Safety Guidelines`}
      eyebrow={t`Trust & safety`}
      intro={t`CampusLoop works because students look out for each other. Follow these guidelines every time you lend or borrow.`}
    >
      <div
        role="note"
        className="flex gap-3 rounded-2xl border-2 border-red-700 bg-red-50 p-4 text-red-900 sm:p-5"
      >
        <PhoneCall className="mt-0.5 h-6 w-6 shrink-0 text-red-700" aria-hidden="true" />
        <p>
          <Trans>
            <strong className="font-bold">In an emergency, call 911.</strong> If you ever feel unsafe during a
            meetup, leave and contact emergency services or campus police first. Report the member to us
            afterwards.
          </Trans>
        </p>
      </div>

      <section aria-labelledby="guidelines" className="mt-10">
        <h2 id="guidelines" className="text-2xl font-bold text-ink">
          <Trans>Our guidelines</Trans>
        </h2>
        <div className="mt-6 grid gap-4 sm:grid-cols-2">
          {guidelines.map((group) => {
            const GroupIcon = group.icon;
            return (
              <Card key={group.title.id} className="p-5">
                <h3 className="flex items-center gap-2 font-semibold text-ink">
                  <span className="flex h-9 w-9 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                    <GroupIcon className="h-5 w-5" aria-hidden="true" />
                  </span>
                  {i18n._(group.title)}
                </h3>
                <ul className="mt-3 space-y-2 text-sm text-muted">
                  {group.points.map((point) => (
                    <li key={point.id} className="flex gap-2">
                      <span
                        className="mt-2 h-1.5 w-1.5 shrink-0 rounded-full bg-brand-700"
                        aria-hidden="true"
                      />
                      <span>{i18n._(point)}</span>
                    </li>
                  ))}
                </ul>
              </Card>
            );
          })}
        </div>
      </section>

      <section aria-labelledby="prohibited" className="mt-12">
        <h2 id="prohibited" className="flex items-center gap-2 text-2xl font-bold text-ink">
          <Ban className="h-6 w-6 text-danger" aria-hidden="true" />
          <Trans>Prohibited Items</Trans>
        </h2>
        <p className="mt-2 text-muted">
          <Trans>
            The following may not be listed, lent or borrowed on CampusLoop. Listings that break these rules
            are removed and may lead to account suspension.
          </Trans>
        </p>
        <ul className="mt-4 grid gap-2 sm:grid-cols-2">
          {prohibited.map((item) => (
            <li
              key={item.id}
              className="flex items-start gap-2 rounded-lg border border-line bg-white p-3 text-ink"
            >
              <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0 text-danger" aria-hidden="true" />
              <span>{i18n._(item)}</span>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="support" className="mt-12 rounded-2xl border border-line bg-brand-50 p-6">
        <h2 id="support" className="text-xl font-bold text-ink">
          <Trans>Something doesn’t feel right?</Trans>
        </h2>
        <p className="mt-2 text-muted">
          <Trans>
            Use the report button on any listing, profile or conversation, or get in touch with our support
            team. We review every report.
          </Trans>
        </p>
        <Button asChild variant="primary" size="md" className="mt-4">
          <Link to={paths.contact}>
            <Trans>Contact Support</Trans>
          </Link>
        </Button>
      </section>
    </StaticPage>
  );
}
