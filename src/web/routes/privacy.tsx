import { Link } from 'react-router';
import { Prose, StaticPage } from '../components/layout/static-page.tsx';
import { paths, SUPPORT_EMAIL } from '../paths.ts';

export default function PrivacyPage() {
  return (
    <StaticPage
      title="Privacy Policy"
      eyebrow="Legal"
      intro="How CampusLoop collects, uses, shares and protects your personal information."
    >
      <Prose>
        <p className="text-sm text-muted">
          Last updated: January 2024
          <br />
          Effective date: January 2024
        </p>

        <h2>1. Who we are</h2>
        <p>
          CampusLoop (“CampusLoop”, “we”, “us”) operates a lending marketplace that lets students of a
          participating university lend and borrow items from one another. This Privacy Policy explains what
          personal information we collect when you use the CampusLoop website and services (the “Service”),
          how we use it, and the choices you have. By using the Service you agree to the practices described
          here and in our <Link to={paths.terms}>Terms of Service</Link>.
        </p>

        <h2>2. Information we collect</h2>
        <h3>Account information</h3>
        <p>
          When you register we collect your name, username, university e-mail address, campus and the password
          you choose. You may optionally add a profile photo and a short bio.
        </p>
        <h3>Listings and photos</h3>
        <p>
          When you list an item we store its title, description, category, condition, any rental fee and
          deposit, availability and the photos you upload. We strip metadata from uploaded photos, including
          GPS location, before they are stored or shown to anyone.
        </p>
        <h3>Messages</h3>
        <p>
          We store the messages you exchange with other members in the in-app chat so that conversations are
          available to both participants and can be reviewed if a report is filed.
        </p>
        <h3>Reservations, reviews and reports</h3>
        <p>
          We keep a record of reservations you make or receive (items, dates, meetup location, status), the
          reviews and ratings you give and receive, and any reports you submit or that concern you.
        </p>
        <h3>Payment information</h3>
        <p>
          Card payments are handled by our card payment processor. Your full card number and security code are
          sent directly to the processor and never reach our servers. We only keep the card brand, the last
          four digits and the expiry date so you can recognise the card you used, together with the amounts
          and status of each charge and refund.
        </p>
        <h3>Device and log data</h3>
        <p>
          Like most websites, our servers automatically record technical information such as your IP address,
          browser type, device type, pages requested, timestamps and error reports. We use this to operate,
          secure and troubleshoot the Service.
        </p>

        <h2>3. How we use your information</h2>
        <ul>
          <li>To create and manage your account and verify that you belong to a participating university.</li>
          <li>To publish your listings and let other members find, reserve and review them.</li>
          <li>To deliver messages, notifications and reservation updates in real time.</li>
          <li>To process rental fees, service fees, deposits and refunds.</li>
          <li>To calculate badges and the sustainability impact shown on your dashboard.</li>
          <li>To investigate reports, prevent fraud and abuse, and enforce our Terms of Service.</li>
          <li>To respond to your questions and support requests.</li>
          <li>To maintain, secure and improve the Service, including fixing bugs.</li>
        </ul>
        <p>We do not sell your personal information, and we do not use it for third-party advertising.</p>

        <h2>4. How we share your information</h2>
        <p>We share personal information only in the following situations:</p>
        <ul>
          <li>
            <strong>With the other party of a reservation.</strong> When you reserve or lend an item, the
            other member sees your name, username, profile, ratings and the messages you send them, so you can
            arrange the meetup.
          </li>
          <li>
            <strong>With our payment processor.</strong> To charge and refund cards, we share the payment
            details required for the transaction with our card payment processor, which handles them under its
            own privacy policy and industry security standards.
          </li>
          <li>
            <strong>For legal reasons.</strong> We may disclose information if required by law, subpoena or
            court order, or when we believe in good faith that disclosure is necessary to protect the safety
            of any person, to investigate fraud, or to protect our rights.
          </li>
          <li>
            <strong>With service providers.</strong> Trusted providers that host our infrastructure or send
            e-mail on our behalf may process data under contracts that limit its use to providing services to
            us.
          </li>
        </ul>
        <p>
          Your public profile (name, username, campus, ratings, reviews and badges) and your active listings
          are visible to other signed-in members of your university community.
        </p>

        <h2>5. Data retention</h2>
        <p>
          We keep your account information for as long as your account is active. Reservation and payment
          records are kept for as long as needed to resolve disputes and meet accounting and legal
          obligations, which is generally up to seven years. Messages are kept while either participant’s
          account remains active. Server logs are kept for a limited period, usually no longer than 90 days,
          unless needed to investigate a security incident. When you delete your account we delete or
          anonymise your personal information, except where we must keep it for the reasons above.
        </p>

        <h2>6. Security</h2>
        <p>
          We use technical and organisational measures to protect your information. Passwords are hashed with
          a strong, salted algorithm and are never stored in plain text. Session cookies are httpOnly, so they
          cannot be read by scripts running in the page, and all traffic to the Service is encrypted in
          transit with HTTPS. Access to personal data is limited to people who need it to operate the Service.
          No system is perfectly secure, so please use a unique password and tell us right away if you suspect
          unauthorised access to your account.
        </p>

        <h2>7. Your rights and choices</h2>
        <ul>
          <li>You can view and update your profile information at any time from your account settings.</li>
          <li>You can edit or remove your listings, and choose which notifications you receive.</li>
          <li>
            You can request a copy of the personal information we hold about you, ask us to correct it, or ask
            us to delete your account.
          </li>
          <li>
            Depending on where you live (for example, in California), you may have additional rights under
            applicable privacy laws. We will not discriminate against you for exercising them.
          </li>
        </ul>
        <p>
          To make a request, e-mail us at <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> from your
          university e-mail address so we can verify your identity.
        </p>

        <h2>8. Cookies</h2>
        <p>
          CampusLoop uses a single session cookie to keep you signed in. It is strictly necessary for the
          Service to work and expires when you sign out or after a period of inactivity. We do not use
          advertising trackers, third-party analytics cookies or cross-site tracking.
        </p>

        <h2>9. Children’s privacy</h2>
        <p>
          The Service is intended only for people who are 18 or older. We do not knowingly collect personal
          information from anyone under 18. If you believe a minor has created an account, please contact us
          and we will delete it.
        </p>

        <h2>10. Your university</h2>
        <p>
          CampusLoop is an independent service. We do not share your listings, messages or reservations with
          your university except where required by law or where you ask us to, for example when a report
          concerns a violation of university policy that you want escalated.
        </p>

        <h2>11. Changes to this policy</h2>
        <p>
          We may update this Privacy Policy from time to time. When we make material changes we will update
          the “Last updated” date above and notify you by e-mail or in the app before the changes take effect.
          Your continued use of the Service after that means you accept the updated policy.
        </p>

        <h2>12. Contact us</h2>
        <p>
          If you have questions about this policy or how we handle your information, contact us at{' '}
          <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> or visit our{' '}
          <Link to={paths.contact}>Contact page</Link>.
        </p>
      </Prose>
    </StaticPage>
  );
}
