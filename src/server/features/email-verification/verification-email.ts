import { brandedEmail } from '../../adapters/mail/layout.ts';
import type { MailMessage } from '../../adapters/mail/mailer.ts';

// The e-mail with the verification link: plain text first, the same words as simple HTML.

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function verificationEmail(input: {
  to: string;
  fullName: string;
  link: string;
  hours: number;
}): MailMessage {
  const firstName = input.fullName.trim().split(/\s+/)[0] || input.fullName;
  const lifetime = input.hours === 1 ? '1 hour' : `${input.hours} hours`;
  const intro = `Please confirm that ${input.to} is your university e-mail address.`;
  const rules = `The link works once and expires in ${lifetime}. Until you verify, you can browse and chat, but you cannot request, lend or list items.`;
  const ignore = 'If you did not create a CampusLoop account, you can ignore this e-mail.';
  const text = [
    `Hi ${firstName},`,
    '',
    `Welcome to CampusLoop! ${intro} Open this link to verify:`,
    '',
    input.link,
    '',
    rules,
    '',
    ignore,
    '',
    'The CampusLoop team',
    '',
  ].join('\n');
  const link = escapeHtml(input.link);
  const html = `<!doctype html>
<html lang="en">
<body style="margin:0;padding:24px;background:#fafaf9;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#1c1917;line-height:1.5">
<div style="max-width:520px;margin:0 auto;background:#ffffff;border:1px solid #e7e5e4;border-radius:16px;padding:24px">
<p style="margin:0 0 16px;font-size:20px;font-weight:700;color:#065f46">CampusLoop</p>
<p>Hi ${escapeHtml(firstName)},</p>
<p>Welcome to CampusLoop! ${escapeHtml(intro)}</p>
<p style="margin:24px 0"><a href="${link}" style="display:inline-block;background:#047857;color:#ffffff;font-weight:600;text-decoration:none;padding:12px 20px;border-radius:8px">Verify my e-mail</a></p>
<p style="font-size:14px;color:#57534e">Or paste this link into your browser:<br><a href="${link}" style="color:#047857;word-break:break-all">${link}</a></p>
<p style="font-size:14px;color:#57534e">${escapeHtml(rules)}</p>
<p style="font-size:14px;color:#57534e">${escapeHtml(ignore)}</p>
<p>The CampusLoop team</p>
</div>
</body>
</html>
`;
  return { to: input.to, subject: 'Verify your CampusLoop e-mail address', text, html };
}

/**
 * To the address of a verified account when someone registers with it (decision 023): the registration's
 * answer is the same as for a new address, and only the mailbox's holder learns what happened.
 */
export function registrationAttemptEmail(input: {
  to: string;
  fullName: string;
  signInLink: string;
  resetLink: string;
}): MailMessage {
  return brandedEmail({
    to: input.to,
    fullName: input.fullName,
    subject: 'Someone tried to register with your address',
    paragraphs: [
      `Someone just tried to create a CampusLoop account with ${input.to}. Your address already has an account, so nothing was created and nothing about your account changed.`,
      'If that was you, sign in instead:',
    ],
    button: { label: 'Sign in', link: input.signInLink },
    notes: [
      `Forgotten your password? Reset it here: ${input.resetLink}`,
      'If it was not you, you can ignore this e-mail: nobody can use your account without your password.',
    ],
  });
}
