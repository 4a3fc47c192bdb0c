import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronDown } from 'lucide-react';
import { Link } from 'react-router';
import { StaticPage } from '../components/layout/static-page.tsx';
import { ServiceFeeTerms } from '../components/service-fee-terms.tsx';
import { Button } from '../components/ui/button.tsx';
import { paths } from '../paths.ts';

const topics: {
  id: string;
  title: MessageDescriptor;
  /** An answer with the service fee's figures (decision 055) is 'service-fee': read from the server. */
  faqs: { q: MessageDescriptor; a: MessageDescriptor | 'service-fee' }[];
}[] = [
  {
    id: 'getting-started',
    title: msg`Getting started`,
    faqs: [
      {
        q: msg`Who can join CampusLoop?`,
        a: msg`Any student aged 18 or older who is enrolled at a participating university and has a valid university e-mail address. We use that address to verify that everyone on CampusLoop belongs to your campus community.`,
      },
      {
        q: msg`Does it cost anything to sign up?`,
        a: msg`No. Creating an account, browsing and listing items are free. When you borrow an item, you pay any rental fee the lender has set plus a service fee, which is always shown at checkout before you confirm.`,
      },
      {
        q: msg`How much is the service fee, and when is my card charged?`,
        a: 'service-fee',
      },
      {
        q: msg`What kinds of items can be shared?`,
        a: msg`Tools, books, clothing, kitchenware, electronics, furniture and other everyday items. Some things are never allowed, such as weapons, hazardous materials and items that break university policies — see the Safety Guidelines for the full list.`,
      },
    ],
  },
  {
    id: 'borrowing',
    title: msg`Borrowing`,
    faqs: [
      {
        q: msg`How do I reserve an item?`,
        a: msg`Open the listing, choose your rental period (a few hours, days or weeks), and send a reservation request. Once the lender accepts, you pay in the app and agree on a campus meetup spot and time in the chat.`,
      },
      {
        q: msg`What if I need the item for longer?`,
        a: msg`Message the lender before your return time. If they agree, they can extend the reservation and any extra rental fee is charged to your card in the app.`,
      },
      {
        q: msg`What happens if I damage or lose something I borrowed?`,
        a: msg`Tell the lender straight away through the chat. Depending on the damage, part or all of your deposit may be used to cover it. If you cannot agree, either of you can open a report and our support team will review it.`,
      },
    ],
  },
  {
    id: 'lending',
    title: msg`Lending`,
    faqs: [
      {
        q: msg`How do I list an item?`,
        a: msg`Add a clear title, an honest description including any defects, a few photos, a category and your availability. You can optionally set a rental fee and a refundable deposit.`,
      },
      {
        q: msg`Should I ask for a deposit?`,
        a: msg`For valuable or fragile items, a deposit gives you peace of mind. It is held during the rental and refunded to the borrower when you confirm that the item came back in good condition.`,
      },
      {
        q: msg`Can I decline a reservation request?`,
        a: msg`Yes. You decide which requests to accept. It helps to reply quickly, even when you decline, so the borrower can look elsewhere.`,
      },
    ],
  },
  {
    id: 'payments-safety',
    title: msg`Payments, deposits & safety`,
    faqs: [
      {
        q: msg`When is my deposit refunded?`,
        a: msg`As soon as the lender confirms the return. Card refunds usually appear on your statement within 5-10 business days, depending on your bank.`,
      },
      {
        q: msg`Can I pay in cash?`,
        a: msg`No. All payments must go through the app so that fees and deposits are protected and on record. Never pay with cash, gift cards or any off-platform method, and report anyone who asks you to.`,
      },
      {
        q: msg`How do I report a member or a listing?`,
        a: msg`Use the report option on the listing, profile or conversation. Reports are confidential and are reviewed by our support team. If you are ever in danger, call 911 first.`,
      },
      {
        q: msg`How do I change my password or delete my account?`,
        a: msg`Go to your account settings to update your profile and password. To delete your account, contact support from your university e-mail address; any open reservations and deposits are settled first.`,
      },
    ],
  },
];

export default function HelpPage() {
  const { t, i18n } = useLingui();
  return (
    <StaticPage
      title={t`Help Center`}
      eyebrow={t`Support`}
      intro={t`Answers to the questions students ask most about lending, borrowing and payments on CampusLoop.`}
    >
      <nav aria-label={t`FAQ topics`}>
        <ul className="flex flex-wrap gap-2">
          {topics.map((topic) => (
            <li key={topic.id}>
              <a
                href={`#${topic.id}`}
                className="inline-block rounded-full border border-line bg-white px-3 py-1.5 text-sm font-medium text-brand-800 hover:bg-brand-50"
              >
                {i18n._(topic.title)}
              </a>
            </li>
          ))}
        </ul>
      </nav>

      {topics.map((topic) => (
        <section key={topic.id} aria-labelledby={topic.id} className="mt-10 scroll-mt-20">
          <h2 id={topic.id} className="scroll-mt-20 text-2xl font-bold text-ink">
            {i18n._(topic.title)}
          </h2>
          <div className="mt-4 space-y-3">
            {topic.faqs.map((faq) => (
              <details key={faq.q.id} className="group rounded-xl border border-line bg-white">
                <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-xl p-4 font-semibold text-ink [&::-webkit-details-marker]:hidden">
                  <span>{i18n._(faq.q)}</span>
                  <ChevronDown
                    className="h-5 w-5 shrink-0 text-muted transition-transform group-open:rotate-180"
                    aria-hidden="true"
                  />
                </summary>
                {faq.a === 'service-fee' ? (
                  <div className="space-y-2 px-4 pb-4 text-muted">
                    <ServiceFeeTerms />
                  </div>
                ) : (
                  <p className="px-4 pb-4 text-muted">{i18n._(faq.a)}</p>
                )}
              </details>
            ))}
          </div>
        </section>
      ))}

      <section aria-labelledby="still-need-help" className="mt-12 rounded-2xl bg-brand-50 p-6 text-center">
        <h2 id="still-need-help" className="text-xl font-bold text-ink">
          <Trans>Still need help?</Trans>
        </h2>
        <p className="mt-2 text-muted">
          <Trans>Our student support team usually replies within 24-48 hours.</Trans>
        </p>
        <Button asChild variant="primary" size="md" className="mt-4">
          <Link to={paths.contact}>
            <Trans>Contact Us</Trans>
          </Link>
        </Button>
      </section>
    </StaticPage>
  );
}
