import { Quote } from 'lucide-react';
import { Link } from 'react-router';
import { StaticPage } from '../components/layout/static-page.tsx';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { paths } from '../paths.ts';

const stories: { name: string; detail: string; title: string; text: string; outcome: string }[] = [
  {
    name: 'Maya R.',
    detail: 'Mechanical Engineering, junior',
    title: 'A cordless drill for one weekend',
    text: 'I needed a drill to build shelves for my apartment, but I was only going to use it for an afternoon. A grad student two buildings over lent me his for a small fee and we met at the engineering quad.',
    outcome: 'Saved buying a drill she would have used once.',
  },
  {
    name: 'Daniel K.',
    detail: 'Economics, sophomore',
    title: 'Textbooks that pay for themselves',
    text: 'My intro textbooks were just sitting on a shelf after I finished the courses. Now I lend them out each quarter with a refundable deposit, and they keep coming back in good shape.',
    outcome: 'Earned enough to cover part of next quarter’s books.',
  },
  {
    name: 'Priya S.',
    detail: 'Biology, senior',
    title: 'Interview-ready without a shopping trip',
    text: 'I had a last-minute interview for a lab position and no blazer. I found one in my size on CampusLoop, picked it up at the library the same evening and returned it two days later.',
    outcome: 'Skipped buying an outfit she did not need long term.',
  },
  {
    name: 'Jordan T.',
    detail: 'Computer Science, first year',
    title: 'A kitchen for the first month',
    text: 'Moving into my first apartment, I borrowed a pot, a pan and a rice cooker from a senior who was moving out later in the year. It gave me time to figure out what I actually use before buying anything.',
    outcome: 'Avoided a cupboard full of duplicate kitchenware.',
  },
  {
    name: 'Elena M.',
    detail: 'Environmental Studies, graduate student',
    title: 'Sharing a projector for movie nights',
    text: 'Our residence hall wanted to host outdoor movie nights. Instead of everyone chipping in for a projector, we borrowed one from a student who uses it for presentations, and met a few new people along the way.',
    outcome: 'One shared projector instead of a new purchase.',
  },
];

export default function StoriesPage() {
  return (
    <StaticPage
      title="Community Stories"
      eyebrow="From our community"
      intro="Small exchanges add up. Here is how students use CampusLoop to borrow what they need and share what they own."
    >
      <p className="rounded-lg border border-line bg-white px-4 py-3 text-sm text-muted">
        Stories are shared with permission; names shortened.
      </p>

      <div className="mt-6 grid gap-4 sm:grid-cols-2">
        {stories.map((story) => (
          <Card key={story.name} className="flex h-full flex-col p-5">
            <article className="flex h-full flex-col">
              <Quote className="h-6 w-6 text-brand-700" aria-hidden="true" />
              <h2 className="mt-2 text-lg font-semibold text-ink">{story.title}</h2>
              <p className="mt-2 flex-1 text-muted">{story.text}</p>
              <p className="mt-4 rounded-lg bg-brand-50 px-3 py-2 text-sm font-medium text-brand-800">
                {story.outcome}
              </p>
              <p className="mt-4 text-sm">
                <span className="font-semibold text-ink">{story.name}</span>
                <span className="text-muted"> · {story.detail}</span>
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
          Write your own story
        </h2>
        <p className="mx-auto mt-2 max-w-xl text-brand-50">
          Join your campus community to lend the things you rarely use and borrow the things you need.
        </p>
        <Button asChild variant="secondary" size="lg" className="mt-6">
          <Link to={paths.register}>Join CampusLoop</Link>
        </Button>
      </section>
    </StaticPage>
  );
}
