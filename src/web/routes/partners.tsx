import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { BookOpen, Building2, Home, Leaf, Mail, Store, Vote } from 'lucide-react';
import type { ComponentType, SVGProps } from 'react';
import { StaticPage } from '../components/layout/static-page.tsx';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { SUPPORT_EMAIL } from '../paths.ts';

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

const partnerKinds: { label: MessageDescriptor; icon: Icon }[] = [
  { label: msg`Sustainability offices`, icon: Leaf },
  { label: msg`Student government`, icon: Vote },
  { label: msg`Residence life`, icon: Home },
  { label: msg`Libraries`, icon: BookOpen },
  { label: msg`Local businesses`, icon: Store },
];

const partnershipTypes: {
  title: MessageDescriptor;
  icon: Icon;
  text: MessageDescriptor;
  examples: MessageDescriptor[];
}[] = [
  {
    title: msg`Sustainability programs`,
    icon: Leaf,
    text: msg`Work with us to make sharing part of your campus waste-reduction goals.`,
    examples: [msg`Promote borrowing during move-in and move-out weeks`, msg`Co-host repair and swap events`],
  },
  {
    title: msg`Student organisations`,
    icon: Vote,
    text: msg`Student government and clubs can help spread the word and share equipment between groups.`,
    examples: [msg`Lend club gear such as tents or sound systems`, msg`Feature CampusLoop at orientation`],
  },
  {
    title: msg`Residence life & libraries`,
    icon: Building2,
    text: msg`Help residents and library visitors find what they need without buying it new.`,
    examples: [
      msg`Point students to shared items for dorm living`,
      msg`Host a staffed, well-lit handover spot`,
    ],
  },
  {
    title: msg`Meetup point businesses`,
    icon: Store,
    text: msg`Cafés and shops near campus can become safe, public places for students to hand items over.`,
    examples: [msg`Be listed as a suggested meetup point`, msg`Welcome students during daytime hours`],
  },
];

export default function PartnersPage() {
  const { t, i18n } = useLingui();
  // The e-mail's subject, in the reader's language; the text below names the same one.
  const subject = t`Partnership inquiry`;
  const inquiryHref = `mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent(subject)}`;
  return (
    <StaticPage
      title={t`Campus Partners`}
      eyebrow={t`Work with us`}
      intro={t`CampusLoop is stronger when campus offices, student groups and neighbours help make sharing easy and safe.`}
    >
      <section aria-labelledby="what-partnering-means">
        <h2 id="what-partnering-means" className="text-2xl font-bold text-ink">
          <Trans>What partnering means</Trans>
        </h2>
        <p className="mt-3 text-muted">
          <Trans>
            Partners help students discover CampusLoop, encourage borrowing over buying, and provide trusted
            public places for meetups. Partnerships are free, and they never involve sharing students’
            personal data. We work with:
          </Trans>
        </p>
        <ul className="mt-4 flex flex-wrap gap-2">
          {partnerKinds.map((kind) => {
            const KindIcon = kind.icon;
            return (
              <li
                key={kind.label.id}
                className="inline-flex items-center gap-2 rounded-full border border-line bg-white px-3 py-1.5 text-sm font-medium text-ink"
              >
                <KindIcon className="h-4 w-4 text-brand-700" aria-hidden="true" />
                {i18n._(kind.label)}
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="partnership-types" className="mt-12">
        <h2 id="partnership-types" className="text-2xl font-bold text-ink">
          <Trans>Ways to partner</Trans>
        </h2>
        <div className="mt-6 grid gap-4 sm:grid-cols-2">
          {partnershipTypes.map((type) => {
            const TypeIcon = type.icon;
            return (
              <Card key={type.title.id} className="p-5">
                <span className="flex h-10 w-10 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                  <TypeIcon className="h-5 w-5" aria-hidden="true" />
                </span>
                <h3 className="mt-3 font-semibold text-ink">{i18n._(type.title)}</h3>
                <p className="mt-1 text-sm text-muted">{i18n._(type.text)}</p>
                <ul className="mt-3 space-y-1 text-sm text-ink">
                  {type.examples.map((example) => (
                    <li key={example.id} className="flex gap-2">
                      <span
                        className="mt-2 h-1.5 w-1.5 shrink-0 rounded-full bg-brand-700"
                        aria-hidden="true"
                      />
                      <span>{i18n._(example)}</span>
                    </li>
                  ))}
                </ul>
              </Card>
            );
          })}
        </div>
      </section>

      <section
        aria-labelledby="become-partner"
        className="mt-12 rounded-2xl border border-line bg-brand-50 p-6 sm:p-8"
      >
        <h2 id="become-partner" className="text-2xl font-bold text-ink">
          <Trans>How to become a partner</Trans>
        </h2>
        <ol className="mt-4 list-decimal space-y-2 ps-5 text-ink">
          <li>
            <Trans>E-mail us with your organisation’s name, your role and what you have in mind.</Trans>
          </li>
          <li>
            <Trans>We’ll set up a short call to talk about your goals and your campus.</Trans>
          </li>
          <li>
            <Trans>Together we agree on a simple plan, from a meetup spot to a move-out sharing drive.</Trans>
          </li>
        </ol>
        <Button
          asChild
          variant="primary"
          size="md"
          className="mt-6 h-auto min-h-11 whitespace-normal py-2 text-center"
        >
          <a href={inquiryHref}>
            <Mail className="h-4 w-4" aria-hidden="true" />
            <Trans>Email a partnership inquiry</Trans>
          </a>
        </Button>
        <p className="mt-3 text-sm text-muted">
          <Trans>
            Or write to <span className="font-medium text-ink">{SUPPORT_EMAIL}</span> with the subject “
            {subject}”.
          </Trans>
        </p>
      </section>
    </StaticPage>
  );
}
