import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Clock, Mail, MapPin, Phone } from 'lucide-react';
import { Link } from 'react-router';
import { StaticPage } from '../components/layout/static-page.tsx';
import { Card } from '../components/ui/card.tsx';
import { paths, SUPPORT_EMAIL, SUPPORT_PHONE, SUPPORT_PHONE_HREF } from '../paths.ts';

const resources: { to: string; label: MessageDescriptor; text: MessageDescriptor }[] = [
  { to: paths.safety, label: msg`Safety Guidelines`, text: msg`Meeting, payment and communication tips.` },
  { to: paths.about, label: msg`How It Works`, text: msg`Getting started with lending and borrowing.` },
  { to: paths.terms, label: msg`Terms of Service`, text: msg`The rules for using CampusLoop.` },
  { to: paths.privacy, label: msg`Privacy Policy`, text: msg`How we handle your information.` },
];

export default function ContactPage() {
  const { t, i18n } = useLingui();
  return (
    <StaticPage
      title={t`Contact Us`}
      eyebrow={t`Support`}
      intro={t`Questions about a reservation, a deposit or your account? Our student support team is here to help.`}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Card className="p-5">
          <h2 className="flex items-center gap-2 text-lg font-semibold text-ink">
            <Mail className="h-5 w-5 text-brand-700" aria-hidden="true" />
            <Trans>Email</Trans>
          </h2>
          <p className="mt-2">
            <a
              href={`mailto:${SUPPORT_EMAIL}`}
              className="break-all font-medium text-brand-700 underline underline-offset-2"
            >
              {SUPPORT_EMAIL}
            </a>
          </p>
          <p className="mt-1 text-sm text-muted">
            <Trans>We reply to e-mails within 24-48 hours.</Trans>
          </p>
        </Card>

        <Card className="p-5">
          <h2 className="flex items-center gap-2 text-lg font-semibold text-ink">
            <Phone className="h-5 w-5 text-brand-700" aria-hidden="true" />
            <Trans>Phone</Trans>
          </h2>
          <p className="mt-2">
            <a href={SUPPORT_PHONE_HREF} className="font-medium text-brand-700 underline underline-offset-2">
              {SUPPORT_PHONE}
            </a>
          </p>
          <p className="mt-1 text-sm text-muted">
            <Trans>Available during our office hours.</Trans>
          </p>
        </Card>

        <Card className="p-5">
          <h2 className="flex items-center gap-2 text-lg font-semibold text-ink">
            <MapPin className="h-5 w-5 text-brand-700" aria-hidden="true" />
            <Trans>Mailing address</Trans>
          </h2>
          <address className="mt-2 not-italic text-ink">
            {/* i18n-ignore: a US postal address, written as mail must be addressed in any language */}
            CampusLoop Student Support
            <br />
            {/* i18n-ignore: postal address */}
            450 Serra Mall
            <br />
            {/* i18n-ignore: postal address */}
            Stanford, CA 94305
          </address>
        </Card>

        <Card className="p-5">
          <h2 className="flex items-center gap-2 text-lg font-semibold text-ink">
            <Clock className="h-5 w-5 text-brand-700" aria-hidden="true" />
            <Trans>Support hours</Trans>
          </h2>
          <dl className="mt-2 space-y-1 text-ink">
            <div className="flex justify-between gap-4">
              <dt>
                <Trans>Monday to Friday</Trans>
              </dt>
              <dd>
                <Trans>9 AM – 5 PM Pacific</Trans>
              </dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt>
                <Trans>Saturday and Sunday</Trans>
              </dt>
              <dd>
                <Trans>Closed</Trans>
              </dd>
            </div>
          </dl>
        </Card>
      </div>

      <div role="note" className="mt-6 rounded-2xl border-2 border-red-700 bg-red-50 p-4 text-red-900">
        <Trans>
          <strong className="font-bold">Emergency?</strong> Call 911. Our support team cannot respond to
          urgent safety situations.
        </Trans>
      </div>

      <section aria-labelledby="resources" className="mt-12">
        <h2 id="resources" className="text-2xl font-bold text-ink">
          <Trans>Helpful resources</Trans>
        </h2>
        <ul className="mt-4 grid gap-3 sm:grid-cols-2">
          {resources.map((resource) => (
            <li key={resource.to}>
              <Link
                to={resource.to}
                className="block h-full rounded-xl border border-line bg-white p-4 transition-colors hover:border-brand-600 hover:bg-brand-50"
              >
                <span className="font-semibold text-brand-700">{i18n._(resource.label)}</span>
                <span className="mt-1 block text-sm text-muted">{i18n._(resource.text)}</span>
              </Link>
            </li>
          ))}
        </ul>
        <p className="mt-6 text-muted">
          <Trans>
            Looking for a quick answer? Try the{' '}
            <Link to={paths.help} className="font-medium text-brand-700 underline underline-offset-2">
              Help Center
            </Link>
            .
          </Trans>
        </p>
      </section>
    </StaticPage>
  );
}
