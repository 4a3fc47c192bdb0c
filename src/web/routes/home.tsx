import {
  ArrowRight,
  CalendarCheck,
  Handshake,
  Leaf,
  PiggyBank,
  Search,
  ShieldCheck,
  Users,
} from 'lucide-react';
import { Link } from 'react-router';
import { CATEGORIES, CATEGORY_LABELS } from '#shared/constants.ts';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { useSession } from '../features/auth/api.ts';
import { CATEGORY_ICONS } from '../features/items/category-icons.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';

// Spec §2 Home. The search box, the 'Available Near You' grid and the impact figures arrive with the
// listings and impact features; until then the page explains the loop and invites people in.

const steps = [
  {
    icon: Search,
    title: 'Find it on campus',
    text: 'See what students at your university are lending: tools, textbooks, cookware, formal wear and more.',
  },
  {
    icon: CalendarCheck,
    title: 'Reserve your days',
    text: 'Pick the dates you need. The lender approves, and any fee or refundable deposit is paid securely by card.',
  },
  {
    icon: Handshake,
    title: 'Meet and return',
    text: 'Hand over at a campus meetup spot, then bring it back on time. Your deposit comes straight back.',
  },
];

const benefits = [
  { icon: PiggyBank, title: 'Save money', text: 'Borrow for a weekend instead of buying for a lifetime.' },
  {
    icon: Leaf,
    title: 'Reduce waste',
    text: 'Every borrow is one less thing made, shipped and thrown away.',
  },
  { icon: ShieldCheck, title: 'Verified students', text: 'Everyone signs up with a university email.' },
  { icon: Users, title: 'Build community', text: 'Meet the people down the hall who have what you need.' },
];

export default function HomePage() {
  useDocumentTitle('');
  const { user } = useSession();
  return (
    <div>
      <section className="relative overflow-hidden bg-gradient-to-br from-brand-800 via-brand-700 to-emerald-600 text-white">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:py-24">
          <p className="inline-flex items-center gap-2 rounded-full bg-white/15 px-3 py-1 text-sm font-semibold">
            <Leaf className="h-4 w-4" aria-hidden="true" /> Share. Save. Sustain.
          </p>
          <h1 className="mt-4 max-w-3xl text-4xl font-extrabold leading-tight tracking-tight sm:text-6xl">
            Borrow what you need, lend what you don't.
          </h1>
          <p className="mt-4 max-w-2xl text-lg text-brand-50">
            {user
              ? `Welcome, ${user.fullName.split(' ')[0]}. CampusLoop is where ${user.campusName} students share the things they only need now and then.`
              : 'CampusLoop is the lending marketplace for your university: students list what they own, classmates borrow it for a few days, and everyone keeps more money and less clutter.'}
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            {!user && (
              <Button asChild size="lg" variant="inverse">
                <Link to={paths.register}>
                  Join Now <ArrowRight className="h-4 w-4" aria-hidden="true" />
                </Link>
              </Button>
            )}
            <Button asChild size="lg" variant="inverseOutline">
              <Link to={paths.about}>How It Works</Link>
            </Button>
          </div>
        </div>
      </section>

      <section aria-labelledby="categories-heading" className="mx-auto max-w-6xl px-4 py-12">
        <h2 id="categories-heading" className="text-2xl font-bold text-ink">
          What students share
        </h2>
        <ul className="mt-5 grid grid-cols-2 gap-3 sm:grid-cols-4">
          {CATEGORIES.map((category) => {
            const Icon = CATEGORY_ICONS[category];
            return (
              <li key={category}>
                <Card className="flex items-center gap-3 p-4">
                  <span className="flex h-10 w-10 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
                    <Icon className="h-5 w-5" aria-hidden="true" />
                  </span>
                  <span className="font-semibold text-ink">{CATEGORY_LABELS[category]}</span>
                </Card>
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="steps-heading" className="border-y border-line bg-white">
        <div className="mx-auto max-w-6xl px-4 py-12">
          <h2 id="steps-heading" className="text-2xl font-bold text-ink">
            How the loop works
          </h2>
          <ol className="mt-6 grid gap-4 md:grid-cols-3">
            {steps.map((step, i) => (
              <li key={step.title}>
                <Card className="h-full p-6">
                  <div className="flex items-center gap-3">
                    <span className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-700 font-bold text-white">
                      {i + 1}
                    </span>
                    <step.icon className="h-6 w-6 text-brand-700" aria-hidden="true" />
                  </div>
                  <h3 className="mt-4 text-lg font-semibold text-ink">{step.title}</h3>
                  <p className="mt-1 text-muted">{step.text}</p>
                </Card>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section aria-labelledby="benefits-heading" className="mx-auto max-w-6xl px-4 py-12">
        <h2 id="benefits-heading" className="text-2xl font-bold text-ink">
          Why students share
        </h2>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {benefits.map((b) => (
            <li key={b.title} className="rounded-2xl bg-brand-50 p-5">
              <b.icon className="h-6 w-6 text-brand-700" aria-hidden="true" />
              <h3 className="mt-3 font-semibold text-ink">{b.title}</h3>
              <p className="mt-1 text-sm text-stone-700">{b.text}</p>
            </li>
          ))}
        </ul>
      </section>

      {!user && (
        <section className="mx-auto max-w-6xl px-4 pb-16">
          <div className="rounded-3xl bg-ink px-6 py-10 text-center text-white sm:px-12">
            <h2 className="text-2xl font-bold sm:text-3xl">Ready to join your campus loop?</h2>
            <p className="mx-auto mt-2 max-w-xl text-stone-300">
              Sign up with your university email in under a minute.
            </p>
            <Button asChild size="lg" className="mt-6">
              <Link to={paths.register}>Join Now</Link>
            </Button>
          </div>
        </section>
      )}
    </div>
  );
}
