import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { Prose, StaticPage } from '../components/layout/static-page.tsx';
import { ServiceFeeTerms } from '../components/service-fee-terms.tsx';
import { paths, SUPPORT_EMAIL } from '../paths.ts';

export default function PrivacyPage() {
  const { t } = useLingui();
  return (
    <StaticPage
      title={t`Privacy Policy`}
      eyebrow={t`Legal`}
      intro={t`How CampusLoop collects, uses, shares and protects your personal information.`}
    >
      <Prose>
        <p className="text-sm text-muted">
          <Trans>
            Last updated: January 2024
            <br />
            Effective date: January 2024
          </Trans>
        </p>

        <h2>
          <Trans>1. Who we are</Trans>
        </h2>
        <p>
          <Trans>
            CampusLoop (“CampusLoop”, “we”, “us”) operates a lending marketplace that lets students of a
            participating university lend and borrow items from one another. This Privacy Policy explains what
            personal information we collect when you use the CampusLoop website and services (the “Service”),
            how we use it, and the choices you have. By using the Service you agree to the practices described
            here and in our <Link to={paths.terms}>Terms of Service</Link>.
          </Trans>
        </p>

        <h2>
          <Trans>2. Information we collect</Trans>
        </h2>
        <h3>
          <Trans>Account information</Trans>
        </h3>
        <p>
          <Trans>
            When you register we collect your name, username, university e-mail address, campus and the
            password you choose. You may optionally add a profile photo and a short bio.
          </Trans>
        </p>
        <h3>
          <Trans>Listings and photos</Trans>
        </h3>
        <p>
          <Trans>
            When you list an item we store its title, description, category, condition, any rental fee and
            deposit, availability and the photos you upload. We strip metadata from uploaded photos, including
            GPS location, before they are stored or shown to anyone.
          </Trans>
        </p>
        <h3>
          <Trans>Messages</Trans>
        </h3>
        <p>
          <Trans>
            We store the messages you exchange with other members in the in-app chat so that conversations are
            available to both participants and can be reviewed if a report is filed.
          </Trans>
        </p>
        <h3>
          <Trans>Reservations, reviews and reports</Trans>
        </h3>
        <p>
          <Trans>
            We keep a record of reservations you make or receive (items, dates, meetup location, status), the
            reviews and ratings you give and receive, and any reports you submit or that concern you.
          </Trans>
        </p>
        <h3>
          <Trans>Payment information</Trans>
        </h3>
        <p>
          <Trans>
            Card payments are handled by our card payment processor. Your full card number and security code
            are sent directly to the processor and never reach our servers. We only keep the card brand, the
            last four digits and the expiry date so you can recognise the card you used, together with the
            amounts and status of each charge and refund.
          </Trans>
        </p>
        <ServiceFeeTerms />
        <h3>
          <Trans>Device and log data</Trans>
        </h3>
        <p>
          <Trans>
            Like most websites, our servers automatically record technical information such as your IP
            address, browser type, device type, pages requested, timestamps and error reports. We use this to
            operate, secure and troubleshoot the Service.
          </Trans>
        </p>

        <h2>
          <Trans>3. How we use your information</Trans>
        </h2>
        <ul>
          <li>
            <Trans>
              To create and manage your account and verify that you belong to a participating university.
            </Trans>
          </li>
          <li>
            <Trans>To publish your listings and let other members find, reserve and review them.</Trans>
          </li>
          <li>
            <Trans>To deliver messages, notifications and reservation updates in real time.</Trans>
          </li>
          <li>
            <Trans>To process rental fees, service fees, deposits and refunds.</Trans>
          </li>
          <li>
            <Trans>To calculate badges and the sustainability impact shown on your dashboard.</Trans>
          </li>
          <li>
            <Trans>To investigate reports, prevent fraud and abuse, and enforce our Terms of Service.</Trans>
          </li>
          <li>
            <Trans>To respond to your questions and support requests.</Trans>
          </li>
          <li>
            <Trans>To maintain, secure and improve the Service, including fixing bugs.</Trans>
          </li>
        </ul>
        <p>
          <Trans>
            We do not sell your personal information, and we do not use it for third-party advertising.
          </Trans>
        </p>

        <h2>
          <Trans>4. How we share your information</Trans>
        </h2>
        <p>
          <Trans>We share personal information only in the following situations:</Trans>
        </p>
        <ul>
          <li>
            <Trans>
              <strong>With the other party of a reservation.</strong> When you reserve or lend an item, the
              other member sees your name, username, profile, ratings and the messages you send them, so you
              can arrange the meetup.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>With our payment processor.</strong> To charge and refund cards, we share the payment
              details required for the transaction with our card payment processor, which handles them under
              its own privacy policy and industry security standards.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>For legal reasons.</strong> We may disclose information if required by law, subpoena or
              court order, or when we believe in good faith that disclosure is necessary to protect the safety
              of any person, to investigate fraud, or to protect our rights.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>With service providers.</strong> Trusted providers that host our infrastructure or send
              e-mail on our behalf may process data under contracts that limit its use to providing services
              to us.
            </Trans>
          </li>
        </ul>
        <p>
          <Trans>
            Your public profile (name, username, campus, ratings, reviews and badges) and your active listings
            are visible to other signed-in members of your university community.
          </Trans>
        </p>

        <h2>
          <Trans>5. Data retention</Trans>
        </h2>
        <p>
          <Trans>
            We keep your account information for as long as your account is active. Reservation and payment
            records are kept for as long as needed to resolve disputes and meet accounting and legal
            obligations, which is generally up to seven years. Messages are kept while either participant’s
            account remains active. Server logs are kept for a limited period, usually no longer than 90 days,
            unless needed to investigate a security incident. When you delete your account we delete or
            anonymise your personal information, except where we must keep it for the reasons above.
          </Trans>
        </p>

        <h2>
          <Trans>6. Security</Trans>
        </h2>
        <p>
          <Trans>
            We use technical and organisational measures to protect your information. Passwords are hashed
            with a strong, salted algorithm and are never stored in plain text. Session cookies are httpOnly,
            so they cannot be read by scripts running in the page, and all traffic to the Service is encrypted
            in transit with HTTPS. Access to personal data is limited to people who need it to operate the
            Service. No system is perfectly secure, so please use a unique password and tell us right away if
            you suspect unauthorised access to your account.
          </Trans>
        </p>

        <h2>
          <Trans>7. Your rights and choices</Trans>
        </h2>
        <ul>
          <li>
            <Trans>
              You can view and update your profile information at any time from your account settings.
            </Trans>
          </li>
          <li>
            <Trans>You can edit or remove your listings, and choose which notifications you receive.</Trans>
          </li>
          <li>
            <Trans>
              You can request a copy of the personal information we hold about you, ask us to correct it, or
              ask us to delete your account.
            </Trans>
          </li>
          <li>
            <Trans>
              Depending on where you live (for example, in California), you may have additional rights under
              applicable privacy laws. We will not discriminate against you for exercising them.
            </Trans>
          </li>
        </ul>
        <p>
          <Trans>
            To make a request, e-mail us at <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> from your
            university e-mail address so we can verify your identity.
          </Trans>
        </p>

        <h2>
          <Trans>8. Cookies</Trans>
        </h2>
        <p>
          <Trans>
            CampusLoop uses a single session cookie to keep you signed in. It is strictly necessary for the
            Service to work and expires when you sign out or after a period of inactivity. We do not use
            advertising trackers, third-party analytics cookies or cross-site tracking.
          </Trans>
        </p>

        <h2>
          <Trans>9. Children’s privacy</Trans>
        </h2>
        <p>
          <Trans>
            The Service is intended only for people who are 18 or older. We do not knowingly collect personal
            information from anyone under 18. If you believe a minor has created an account, please contact us
            and we will delete it.
          </Trans>
        </p>

        <h2>
          <Trans>10. Your university</Trans>
        </h2>
        <p>
          <Trans>
            CampusLoop is an independent service. We do not share your listings, messages or reservations with
            your university except where required by law or where you ask us to, for example when a report
            concerns a violation of university policy that you want escalated.
          </Trans>
        </p>

        <h2>
          <Trans>11. Changes to this policy</Trans>
        </h2>
        <p>
          <Trans>
            We may update this Privacy Policy from time to time. When we make material changes we will update
            the “Last updated” date above and notify you by e-mail or in the app before the changes take
            effect. Your continued use of the Service after that means you accept the updated policy.
          </Trans>
        </p>

        <h2>
          <Trans>12. Contact us</Trans>
        </h2>
        <p>
          <Trans>
            If you have questions about this policy or how we handle your information, contact us at{' '}
            <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> or visit our{' '}
            <Link to={paths.contact}>Contact page</Link>.
          </Trans>
        </p>
      </Prose>
    </StaticPage>
  );
}
