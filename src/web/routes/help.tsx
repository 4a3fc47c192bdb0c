import { ChevronDown } from 'lucide-react';
import { Link } from 'react-router';
import { StaticPage } from '../components/layout/static-page.tsx';
import { Button } from '../components/ui/button.tsx';
import { paths } from '../paths.ts';

const topics: { id: string; title: string; faqs: { q: string; a: string }[] }[] = [
  {
    id: 'getting-started',
    title: 'Getting started',
    faqs: [
      {
        q: 'Who can join CampusLoop?',
        a: 'Any student aged 18 or older who is enrolled at a participating university and has a valid university e-mail address. We use that address to verify that everyone on CampusLoop belongs to your campus community.',
      },
      {
        q: 'Does it cost anything to sign up?',
        a: 'No. Creating an account, browsing and listing items are free. When you borrow an item, you pay any rental fee the lender has set plus a service fee, which is always shown at checkout before you confirm.',
      },
      {
        q: 'What kinds of items can be shared?',
        a: 'Tools, books, clothing, kitchenware, electronics, furniture and other everyday items. Some things are never allowed, such as weapons, hazardous materials and items that break university policies — see the Safety Guidelines for the full list.',
      },
    ],
  },
  {
    id: 'borrowing',
    title: 'Borrowing',
    faqs: [
      {
        q: 'How do I reserve an item?',
        a: 'Open the listing, choose your rental period (a few hours, days or weeks), and send a reservation request. Once the lender accepts, you pay in the app and agree on a campus meetup spot and time in the chat.',
      },
      {
        q: 'What if I need the item for longer?',
        a: 'Message the lender before your return time. If they agree, they can extend the reservation and any extra rental fee is charged to your card in the app.',
      },
      {
        q: 'What happens if I damage or lose something I borrowed?',
        a: 'Tell the lender straight away through the chat. Depending on the damage, part or all of your deposit may be used to cover it. If you cannot agree, either of you can open a report and our support team will review it.',
      },
    ],
  },
  {
    id: 'lending',
    title: 'Lending',
    faqs: [
      {
        q: 'How do I list an item?',
        a: 'Add a clear title, an honest description including any defects, a few photos, a category and your availability. You can optionally set a rental fee and a refundable deposit.',
      },
      {
        q: 'Should I ask for a deposit?',
        a: 'For valuable or fragile items, a deposit gives you peace of mind. It is held during the rental and refunded to the borrower when you confirm that the item came back in good condition.',
      },
      {
        q: 'Can I decline a reservation request?',
        a: 'Yes. You decide which requests to accept. It helps to reply quickly, even when you decline, so the borrower can look elsewhere.',
      },
    ],
  },
  {
    id: 'payments-safety',
    title: 'Payments, deposits & safety',
    faqs: [
      {
        q: 'When is my deposit refunded?',
        a: 'As soon as the lender confirms the return. Card refunds usually appear on your statement within 5-10 business days, depending on your bank.',
      },
      {
        q: 'Can I pay in cash?',
        a: 'No. All payments must go through the app so that fees and deposits are protected and on record. Never pay with cash, gift cards or any off-platform method, and report anyone who asks you to.',
      },
      {
        q: 'How do I report a member or a listing?',
        a: 'Use the report option on the listing, profile or conversation. Reports are confidential and are reviewed by our support team. If you are ever in danger, call 911 first.',
      },
      {
        q: 'How do I change my password or delete my account?',
        a: 'Go to your account settings to update your profile and password. To delete your account, contact support from your university e-mail address; any open reservations and deposits are settled first.',
      },
    ],
  },
];

export default function HelpPage() {
  return (
    <StaticPage
      title="Help Center"
      eyebrow="Support"
      intro="Answers to the questions students ask most about lending, borrowing and payments on CampusLoop."
    >
      <nav aria-label="FAQ topics">
        <ul className="flex flex-wrap gap-2">
          {topics.map((topic) => (
            <li key={topic.id}>
              <a
                href={`#${topic.id}`}
                className="inline-block rounded-full border border-line bg-white px-3 py-1.5 text-sm font-medium text-brand-800 hover:bg-brand-50"
              >
                {topic.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>

      {topics.map((topic) => (
        <section key={topic.id} aria-labelledby={topic.id} className="mt-10 scroll-mt-20">
          <h2 id={topic.id} className="scroll-mt-20 text-2xl font-bold text-ink">
            {topic.title}
          </h2>
          <div className="mt-4 space-y-3">
            {topic.faqs.map((faq) => (
              <details key={faq.q} className="group rounded-xl border border-line bg-white">
                <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-xl p-4 font-semibold text-ink [&::-webkit-details-marker]:hidden">
                  <span>{faq.q}</span>
                  <ChevronDown
                    className="h-5 w-5 shrink-0 text-muted transition-transform group-open:rotate-180"
                    aria-hidden="true"
                  />
                </summary>
                <p className="px-4 pb-4 text-muted">{faq.a}</p>
              </details>
            ))}
          </div>
        </section>
      ))}

      <section aria-labelledby="still-need-help" className="mt-12 rounded-2xl bg-brand-50 p-6 text-center">
        <h2 id="still-need-help" className="text-xl font-bold text-ink">
          Still need help?
        </h2>
        <p className="mt-2 text-muted">Our student support team usually replies within 24-48 hours.</p>
        <Button asChild variant="primary" size="md" className="mt-4">
          <Link to={paths.contact}>Contact Us</Link>
        </Button>
      </section>
    </StaticPage>
  );
}
