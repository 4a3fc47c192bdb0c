import { BookOpen, Building2, Home, Leaf, Mail, Store, Vote } from 'lucide-react';
import type { ComponentType, SVGProps } from 'react';
import { StaticPage } from '../components/layout/static-page.tsx';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { SUPPORT_EMAIL } from '../paths.ts';

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

const partnerKinds: { label: string; icon: Icon }[] = [
  { label: 'Sustainability offices', icon: Leaf },
  { label: 'Student government', icon: Vote },
  { label: 'Residence life', icon: Home },
  { label: 'Libraries', icon: BookOpen },
  { label: 'Local businesses', icon: Store },
];

const partnershipTypes: { title: string; icon: Icon; text: string; examples: string[] }[] = [
  {
    title: 'Sustainability programs',
    icon: Leaf,
    text: 'Work with us to make sharing part of your campus waste-reduction goals.',
    examples: ['Promote borrowing during move-in and move-out weeks', 'Co-host repair and swap events'],
  },
  {
    title: 'Student organisations',
    icon: Vote,
    text: 'Student government and clubs can help spread the word and share equipment between groups.',
    examples: ['Lend club gear such as tents or sound systems', 'Feature CampusLoop at orientation'],
  },
  {
    title: 'Residence life & libraries',
    icon: Building2,
    text: 'Help residents and library visitors find what they need without buying it new.',
    examples: ['Point students to shared items for dorm living', 'Host a staffed, well-lit handover spot'],
  },
  {
    title: 'Meetup point businesses',
    icon: Store,
    text: 'Cafés and shops near campus can become safe, public places for students to hand items over.',
    examples: ['Be listed as a suggested meetup point', 'Welcome students during daytime hours'],
  },
];

const inquiryHref = `mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent('Partnership inquiry')}`;

export default function PartnersPage() {
  return (
    <StaticPage
      title="Campus Partners"
      eyebrow="Work with us"
      intro="CampusLoop is stronger when campus offices, student groups and neighbours help make sharing easy and safe."
    >
      <section aria-labelledby="what-partnering-means">
        <h2 id="what-partnering-means" className="text-2xl font-bold text-ink">
          What partnering means
        </h2>
        <p className="mt-3 text-muted">
          Partners help students discover CampusLoop, encourage borrowing over buying, and provide trusted
          public places for meetups. Partnerships are free, and they never involve sharing students’ personal
          data. We work with:
        </p>
        <ul className="mt-4 flex flex-wrap gap-2">
          {partnerKinds.map((kind) => {
            const KindIcon = kind.icon;
            return (
              <li
                key={kind.label}
                className="inline-flex items-center gap-2 rounded-full border border-line bg-white px-3 py-1.5 text-sm font-medium text-ink"
              >
                <KindIcon className="h-4 w-4 text-brand-700" aria-hidden="true" />
                {kind.label}
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="partnership-types" className="mt-12">
        <h2 id="partnership-types" className="text-2xl font-bold text-ink">
          Ways to partner
        </h2>
        <div className="mt-6 grid gap-4 sm:grid-cols-2">
          {partnershipTypes.map((type) => {
            const TypeIcon = type.icon;
            return (
              <Card key={type.title} className="p-5">
                <span className="flex h-10 w-10 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                  <TypeIcon className="h-5 w-5" aria-hidden="true" />
                </span>
                <h3 className="mt-3 font-semibold text-ink">{type.title}</h3>
                <p className="mt-1 text-sm text-muted">{type.text}</p>
                <ul className="mt-3 space-y-1 text-sm text-ink">
                  {type.examples.map((example) => (
                    <li key={example} className="flex gap-2">
                      <span
                        className="mt-2 h-1.5 w-1.5 shrink-0 rounded-full bg-brand-700"
                        aria-hidden="true"
                      />
                      <span>{example}</span>
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
          How to become a partner
        </h2>
        <ol className="mt-4 list-decimal space-y-2 ps-5 text-ink">
          <li>E-mail us with your organisation’s name, your role and what you have in mind.</li>
          <li>We’ll set up a short call to talk about your goals and your campus.</li>
          <li>Together we agree on a simple plan, from a meetup spot to a move-out sharing drive.</li>
        </ol>
        <Button asChild variant="primary" size="md" className="mt-6">
          <a href={inquiryHref}>
            <Mail className="h-4 w-4" aria-hidden="true" />
            Email a partnership inquiry
          </a>
        </Button>
        <p className="mt-3 text-sm text-muted">
          Or write to <span className="font-medium text-ink">{SUPPORT_EMAIL}</span> with the subject
          “Partnership inquiry”.
        </p>
      </section>
    </StaticPage>
  );
}
