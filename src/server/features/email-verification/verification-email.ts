import { plural, t } from '@lingui/core/macro';
import type { Locale } from '#shared/i18n.ts';
import { brandedEmail } from '../../adapters/mail/layout.ts';
import type { MailMessage } from '../../adapters/mail/mailer.ts';
import { inLocale } from '../../i18n.ts';

// The e-mail with the verification link: plain text first, the same words as simple HTML.
// Written in the recipient's language (`locale`: the new account's, which is the sign-up page's).

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function verificationEmail(input: {
  to: string;
  locale: Locale;
  fullName: string;
  link: string;
  hours: number;
}): MailMessage {
  return inLocale(input.locale, () => {
    const firstName = input.fullName.trim().split(/\s+/)[0] || input.fullName;
    const { to, hours } = input;
    const greeting = t`Hi ${firstName},`;
    const welcome = t`Welcome to CampusLoop! Please confirm that ${to} is your university e-mail address.`;
    const openLink = t`Open this link to verify:`;
    const rules = t`The link works once and expires in ${plural(hours, { one: '# hour', other: '# hours' })}. It finishes creating your account and signs you in: until you open it, you cannot sign in.`;
    const ignore = t`If you did not create a CampusLoop account, you can ignore this e-mail.`;
    const signature = t`The CampusLoop team`;
    const button = t`Verify my e-mail`;
    const pasteLink = t`Or paste this link into your browser:`;
    const text = [
      greeting,
      '',
      `${welcome} ${openLink}`,
      '',
      input.link,
      '',
      rules,
      '',
      ignore,
      '',
      signature,
      '',
    ].join('\n');
    const link = escapeHtml(input.link);
    const html = `<!doctype html>
<html lang="${input.locale}">
<body style="margin:0;padding:24px;background:#fafaf9;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#1c1917;line-height:1.5">
<div style="max-width:520px;margin:0 auto;background:#ffffff;border:1px solid #e7e5e4;border-radius:16px;padding:24px">
<p style="margin:0 0 16px;font-size:20px;font-weight:700;color:#065f46">CampusLoop</p>
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(welcome)}</p>
<p style="margin:24px 0"><a href="${link}" style="display:inline-block;background:#047857;color:#ffffff;font-weight:600;text-decoration:none;padding:12px 20px;border-radius:8px">${escapeHtml(button)}</a></p>
<p style="font-size:14px;color:#57534e">${escapeHtml(pasteLink)}<br><a href="${link}" style="color:#047857;word-break:break-all">${link}</a></p>
<p style="font-size:14px;color:#57534e">${escapeHtml(rules)}</p>
<p style="font-size:14px;color:#57534e">${escapeHtml(ignore)}</p>
<p>${escapeHtml(signature)}</p>
</div>
</body>
</html>
`;
    return { to: input.to, subject: t`Verify your CampusLoop e-mail address`, text, html };
  });
}

/**
 * To the address of a verified account when someone registers with it (decision 023): the registration's
 * answer is the same as for a new address, and only the mailbox's holder learns what happened. In the
 * account's language.
 */
export function registrationAttemptEmail(input: {
  to: string;
  locale: Locale;
  fullName: string;
  signInLink: string;
  resetLink: string;
}): MailMessage {
  const { to, resetLink } = input;
  return inLocale(input.locale, () =>
    brandedEmail({
      to,
      locale: input.locale,
      fullName: input.fullName,
      subject: t`Someone tried to register with your address`,
      paragraphs: [
        t`Someone just tried to create a CampusLoop account with ${to}. Your address already has an account, so nothing was created and nothing about your account changed.`,
        t`If that was you, sign in instead:`,
      ],
      button: { label: t`Sign in`, link: input.signInLink },
      notes: [
        t`Forgotten your password? Reset it here: ${resetLink}`,
        t`If it was not you, you can ignore this e-mail: nobody can use your account without your password.`,
      ],
    }),
  );
}
