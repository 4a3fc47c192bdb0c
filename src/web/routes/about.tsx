import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  CalendarClock,
  HandCoins,
  Leaf,
  PiggyBank,
  Search,
  ShieldCheck,
  UserCheck,
  Users,
} from 'lucide-react';
import type { ComponentType, SVGProps } from 'react';
import { Link } from 'react-router';
import { StaticPage } from '../components/layout/static-page.tsx';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { paths } from '../paths.ts';

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

const steps: { title: MessageDescriptor; text: MessageDescriptor; icon: Icon }[] = [
  {
    title: msg`Join with your university email`,
    text: msg`Sign up with your campus email address so everyone you meet on CampusLoop is a verified member of your university community.`,
    icon: UserCheck,
  },
  {
    title: msg`List or browse items`,
    text: msg`Post the tools, books, clothing, kitchenware, electronics or furniture you rarely use, or browse what fellow students are offering nearby.`,
    icon: Search,
  },
  {
    title: msg`Secure transactions`,
    text: msg`Fees and refundable deposits are paid by card inside the app, and ratings and reviews after every exchange keep everyone accountable.`,
    icon: ShieldCheck,
  },
  {
    title: msg`Flexible rental periods`,
    text: msg`Borrow for a few hours, a few days or a few weeks. Agree on the period up front and hand the item over at a campus meetup spot.`,
    icon: CalendarClock,
  },
];

const benefits: { title: MessageDescriptor; text: MessageDescriptor; icon: Icon }[] = [
  {
    title: msg`Save Money`,
    text: msg`Borrow what you need for a project, a trip or a semester instead of buying something you will use only a handful of times.`,
    icon: PiggyBank,
  },
  {
    title: msg`Earn Extra Income`,
    text: msg`Set an optional rental fee and let the things sitting in your closet or under your bed help cover textbooks and coffee.`,
    icon: HandCoins,
  },
  {
    title: msg`Reduce Waste`,
    text: msg`Every item that gets shared is one less item bought new, shipped and eventually thrown away at the end of the year.`,
    icon: Leaf,
  },
  {
    title: msg`Build Community`,
    text: msg`Meet classmates, dorm neighbours and students from other departments through small, friendly exchanges across campus.`,
    icon: Users,
  },
];

export default function AboutPage() {
  const { t, i18n } = useLingui();
  return (
    <StaticPage
      title={t`How It Works`}
      eyebrow={t`About CampusLoop`}
      intro={t`CampusLoop is a lending marketplace for students of one university: share what you own, borrow what you need, and meet on campus to hand it over.`}
    >
      <section aria-labelledby="getting-started">
        <h2 id="getting-started" className="text-2xl font-bold text-ink">
          <Trans>Getting started</Trans>
        </h2>
        <ol className="mt-6 grid gap-4 sm:grid-cols-2">
          {steps.map((step, index) => {
            const StepIcon = step.icon;
            return (
              <li key={step.title.id}>
                <Card className="flex h-full gap-4 p-5">
                  <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-700 text-base font-bold text-white">
                    {index + 1}
                  </span>
                  <div>
                    <h3 className="flex items-center gap-2 font-semibold text-ink">
                      <StepIcon className="h-5 w-5 text-brand-700" aria-hidden="true" />
                      {i18n._(step.title)}
                    </h3>
                    <p className="mt-2 text-sm text-muted">{i18n._(step.text)}</p>
                  </div>
                </Card>
              </li>
            );
          })}
        </ol>
      </section>

      <section aria-labelledby="benefits" className="mt-12">
        <h2 id="benefits" className="text-2xl font-bold text-ink">
          <Trans>Why students use CampusLoop</Trans>
        </h2>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2">
          {benefits.map((benefit) => {
            const BenefitIcon = benefit.icon;
            return (
              <li key={benefit.title.id}>
                <Card className="h-full p-5">
                  <span className="flex h-10 w-10 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                    <BenefitIcon className="h-5 w-5" aria-hidden="true" />
                  </span>
                  <h3 className="mt-3 font-semibold text-ink">{i18n._(benefit.title)}</h3>
                  <p className="mt-1 text-sm text-muted">{i18n._(benefit.text)}</p>
                </Card>
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="ready" className="mt-12 rounded-2xl bg-brand-700 p-6 text-white sm:p-8">
        <h2 id="ready" className="text-2xl font-bold">
          <Trans>Ready to start sharing?</Trans>
        </h2>
        <p className="mt-2 max-w-xl text-brand-50">
          <Trans>
            Create your account with your university email and make your first listing or reservation in
            minutes.
          </Trans>
        </p>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          <Button asChild variant="secondary" size="lg">
            <Link to={paths.register}>
              <Trans>Get Started</Trans>
            </Link>
          </Button>
          <Button asChild variant="outline" size="lg">
            <Link to={paths.browse}>
              <Trans>Browse Items</Trans>
            </Link>
          </Button>
          <Button asChild variant="outline" size="lg">
            <Link to={paths.safety}>
              <Trans>Safety Guidelines</Trans>
            </Link>
          </Button>
        </div>
      </section>
    </StaticPage>
  );
}
