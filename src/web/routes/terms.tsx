import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { Prose, StaticPage } from '../components/layout/static-page.tsx';
import { ServiceFeeTerms } from '../components/service-fee-terms.tsx';
import { paths, SUPPORT_EMAIL } from '../paths.ts';

export default function TermsPage() {
  const { t } = useLingui();
  return (
    <StaticPage
      title={t`Terms of Service`}
      eyebrow={t`Legal`}
      intro={t`The rules for using CampusLoop to lend and borrow items within your university community.`}
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
          <Trans>1. Acceptance of these terms</Trans>
        </h2>
        <p>
          <Trans>
            These Terms of Service (“Terms”) govern your use of the CampusLoop website and services (the
            “Service”). By creating an account or using the Service you agree to these Terms and to our{' '}
            <Link to={paths.privacy}>Privacy Policy</Link>. If you do not agree, do not use the Service.
          </Trans>
        </p>

        <h2>
          <Trans>2. Eligibility</Trans>
        </h2>
        <p>
          <Trans>To use CampusLoop you must:</Trans>
        </p>
        <ul>
          <li>
            <Trans>be currently enrolled at a participating university;</Trans>
          </li>
          <li>
            <Trans>be at least 18 years old; and</Trans>
          </li>
          <li>
            <Trans>register with a valid university e-mail address that you control.</Trans>
          </li>
        </ul>
        <p>
          <Trans>
            We may ask you to re-verify your university e-mail address and may close accounts that no longer
            qualify.
          </Trans>
        </p>

        <h2>
          <Trans>3. Your account</Trans>
        </h2>
        <p>
          <Trans>
            You are responsible for the accuracy of the information in your account and for everything that
            happens under it. Keep your password confidential, do not share your account, and do not create
            more than one account. Tell us immediately at{' '}
            <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> if you suspect unauthorised use.
          </Trans>
        </p>

        <h2>
          <Trans>4. Listings</Trans>
        </h2>
        <p>
          <Trans>
            When you list an item you confirm that you own it or are entitled to lend it, that your
            description and photos are accurate and your own, and that the item is safe, clean and works as
            described. You set any rental fee, deposit and availability. We may remove listings that break
            these Terms or our <Link to={paths.safety}>Safety Guidelines</Link>, without notice.
          </Trans>
        </p>

        <h2>
          <Trans>5. Reservations and payments</Trans>
        </h2>
        <p>
          <Trans>
            A reservation is an agreement between the borrower and the lender for a specific item and rental
            period. CampusLoop provides the platform but is not a party to that agreement.
          </Trans>
        </p>
        <ul>
          <li>
            <Trans>
              All payments must be made by card through the Service. Payments outside the app are not
              permitted.
            </Trans>
          </li>
          <li>
            <Trans>
              Rental fees are set by the lender. CampusLoop’s service fee, and how it is refunded, is set out
              below this list.
            </Trans>
          </li>
          <li>
            <Trans>
              Lenders may require a deposit. Deposits are held during the rental and are refundable when the
              item is returned on time and in good condition, allowing for normal wear and tear.
            </Trans>
          </li>
          <li>
            <Trans>
              If an item is returned late, damaged or not at all, part or all of the deposit may be kept to
              cover the lender’s loss, following the dispute process below.
            </Trans>
          </li>
          <li>
            <Trans>Cancellation and refund rules are shown on each reservation before you confirm it.</Trans>
          </li>
        </ul>
        <ServiceFeeTerms />

        <h2>
          <Trans>6. Lender responsibilities</Trans>
        </h2>
        <ul>
          <li>
            <Trans>
              Describe the item honestly, including any defects, and keep availability up to date.
            </Trans>
          </li>
          <li>
            <Trans>Hand the item over at the agreed campus meetup point and time.</Trans>
          </li>
          <li>
            <Trans>Provide any instructions needed to use the item safely.</Trans>
          </li>
          <li>
            <Trans>Confirm returns promptly so deposits can be released.</Trans>
          </li>
        </ul>

        <h2>
          <Trans>7. Borrower responsibilities</Trans>
        </h2>
        <ul>
          <li>
            <Trans>Use the item with reasonable care and only for its intended purpose.</Trans>
          </li>
          <li>
            <Trans>Do not sell, sublet or lend the item to anyone else.</Trans>
          </li>
          <li>
            <Trans>Return the item on time, clean and in the condition you received it.</Trans>
          </li>
          <li>
            <Trans>Tell the lender right away if the item is lost, damaged or stops working.</Trans>
          </li>
        </ul>

        <h2>
          <Trans>8. Prohibited items and conduct</Trans>
        </h2>
        <p>
          <Trans>
            You may not list or exchange weapons or dangerous items, illegal substances or paraphernalia,
            counterfeit or stolen goods, items violating university policies, hazardous materials, or items
            requiring special licenses. You may not harass, threaten or discriminate against other members,
            post false or misleading content, scrape or disrupt the Service, or use it for any unlawful
            purpose. See our <Link to={paths.safety}>Safety Guidelines</Link> for details.
          </Trans>
        </p>

        <h2>
          <Trans>9. Reviews and reports</Trans>
        </h2>
        <p>
          <Trans>
            After each exchange both members may leave a rating and review. Reviews must be honest, relevant
            and based on your own experience; we may remove reviews that are abusive, off-topic or fraudulent.
            You can report listings, members or messages that break these Terms. We review reports and may
            take action, including removing content or suspending accounts, but we are not obliged to monitor
            all activity.
          </Trans>
        </p>

        <h2>
          <Trans>10. Disputes between members</Trans>
        </h2>
        <p>
          <Trans>
            If something goes wrong with a reservation, try to resolve it with the other member first through
            the in-app chat. If you cannot agree, open a report within 7 days of the scheduled return date. We
            will review the messages, photos and reservation records and make a decision about any deposit,
            which both members agree to accept. This process does not limit any rights you have under
            applicable law.
          </Trans>
        </p>

        <h2>
          <Trans>11. Disclaimers</Trans>
        </h2>
        <p>
          <Trans>
            The Service is provided “as is” and “as available”. Items are provided by members, not by
            CampusLoop, and we do not inspect, guarantee or insure them. We do not guarantee the conduct of
            any member, the availability of any item, or that the Service will be uninterrupted or error-free.
            Impact figures shown in the app are estimates.
          </Trans>
        </p>

        <h2>
          <Trans>12. Limitation of liability</Trans>
        </h2>
        <p>
          <Trans>
            To the fullest extent permitted by law, CampusLoop will not be liable for any indirect,
            incidental, special or consequential damages, or for loss of or damage to items exchanged between
            members. Our total liability for any claim relating to the Service is limited to the fees you paid
            to CampusLoop in the twelve months before the claim arose. Some jurisdictions do not allow these
            limitations, so they may not apply to you.
          </Trans>
        </p>

        <h2>
          <Trans>13. Termination and suspension</Trans>
        </h2>
        <p>
          <Trans>
            You may close your account at any time. We may suspend or terminate your account, remove content
            or restrict access if you break these Terms, put other members at risk, or no longer meet the
            eligibility requirements. Outstanding reservations, payments and deposits will be settled
            according to these Terms.
          </Trans>
        </p>

        <h2>
          <Trans>14. Governing law</Trans>
        </h2>
        <p>
          <Trans>
            These Terms are governed by the laws of the State of California, without regard to its conflict of
            laws rules. Any dispute with CampusLoop will be brought in the state or federal courts located in
            California, unless applicable law requires otherwise.
          </Trans>
        </p>

        <h2>
          <Trans>15. Changes to these terms</Trans>
        </h2>
        <p>
          <Trans>
            We may update these Terms from time to time. We will notify you of material changes by e-mail or
            in the app before they take effect. If you keep using the Service after the changes take effect,
            you accept the updated Terms.
          </Trans>
        </p>

        <h2>
          <Trans>16. Contact</Trans>
        </h2>
        <p>
          <Trans>
            Questions about these Terms? E-mail <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> or
            visit our <Link to={paths.contact}>Contact page</Link>.
          </Trans>
        </p>
      </Prose>
    </StaticPage>
  );
}
