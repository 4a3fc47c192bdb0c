import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Quote } from 'lucide-react';
import { Link } from 'react-router';
import { StaticPage } from '../components/layout/static-page.tsx';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { paths } from '../paths.ts';

const stories: {
  /** A student's first name and initial: a name, the same in every language. */
  name: string;
  detail: MessageDescriptor;
  title: MessageDescriptor;
  text: MessageDescriptor;
  outcome: MessageDescriptor;
}[] = [
  {
    name: 'Maya R.',
    detail: msg`Mechanical Engineering, junior`,
    title: msg`A cordless drill for one weekend`,
    text: msg`I needed a drill to build shelves for my apartment, but I was only going to use it for an afternoon. A grad student two buildings over lent me his for a small fee and we met at the engineering quad.`,
    outcome: msg`Saved buying a drill she would have used once.`,
  },
  {
    name: 'Daniel K.',
    detail: msg`Economics, sophomore`,
    title: msg`Textbooks that pay for themselves`,
    text: msg`My intro textbooks were just sitting on a shelf after I finished the courses. Now I lend them out each quarter with a refundable deposit, and they keep coming back in good shape.`,
    outcome: msg`Earned enough to cover part of next quarter’s books.`,
  },
  {
    name: 'Priya S.',
    detail: msg`Biology, senior`,
    title: msg`Interview-ready without a shopping trip`,
    text: msg`I had a last-minute interview for a lab position and no blazer. I found one in my size on CampusLoop, picked it up at the library the same evening and returned it two days later.`,
    outcome: msg`Skipped buying an outfit she did not need long term.`,
  },
  {
    name: 'Jordan T.',
    detail: msg`Computer Science, first year`,
    title: msg`A kitchen for the first month`,
    text: msg`Moving into my first apartment, I borrowed a pot, a pan and a rice cooker from a senior who was moving out later in the year. It gave me time to figure out what I actually use before buying anything.`,
    outcome: msg`Avoided a cupboard full of duplicate kitchenware.`,
  },
  {
    name: 'Elena M.',
    detail: msg`Environmental Studies, graduate student`,
    title: msg`Sharing a projector for movie nights`,
    text: msg`Our residence hall wanted to host outdoor movie nights. Instead of everyone chipping in for a projector, we borrowed one from a student who uses it for presentations, and met a few new people along the way.`,
    outcome: msg`One shared projector instead of a new purchase.`,
  },
];

export default function StoriesPage() {
  const { t, i18n } = useLingui();
  return (
    <StaticPage
      title={t`Community Stories`}
      eyebrow={t`From our community`}
      intro={t`Small exchanges add up. Here is how students use CampusLoop to borrow what they need and share what they own.`}
    >
      <p className="rounded-lg border border-line bg-white px-4 py-3 text-sm text-muted">
        <Trans>Stories are shared with permission; names shortened.</Trans>
      </p>

      <div className="mt-6 grid gap-4 sm:grid-cols-2">
        {stories.map((story) => (
          <Card key={story.name} className="flex h-full flex-col p-5">
            <article className="flex h-full flex-col">
              <Quote className="h-6 w-6 text-brand-700" aria-hidden="true" />
              <h2 className="mt-2 text-lg font-semibold text-ink">{i18n._(story.title)}</h2>
              <p className="mt-2 flex-1 text-muted">{i18n._(story.text)}</p>
              <p className="mt-4 rounded-lg bg-brand-50 px-3 py-2 text-sm font-medium text-brand-800">
                {i18n._(story.outcome)}
              </p>
              <p className="mt-4 text-sm">
                <span className="font-semibold text-ink">{story.name}</span>
                <span className="text-muted"> · {i18n._(story.detail)}</span>
              </p>
            </article>
          </Card>
        ))}
      </div>

      <section
        aria-labelledby="join"
        className="mt-12 rounded-2xl bg-brand-700 p-6 text-center text-white sm:p-8"
      >
        <h2 id="join" className="text-2xl font-bold">
          <Trans>Write your own story</Trans>
        </h2>
        <p className="mx-auto mt-2 max-w-xl text-brand-50">
          <Trans>
            Join your campus community to lend the things you rarely use and borrow the things you need.
          </Trans>
        </p>
        <Button asChild variant="secondary" size="lg" className="mt-6">
          <Link to={paths.register}>
            <Trans>Join CampusLoop</Trans>
          </Link>
        </Button>
      </section>
    </StaticPage>
  );
}
