import type { MailMessage } from '../../adapters/mail/mailer.ts';

// The e-mail with the password reset link: plain text first, the same words as simple HTML
// (the verification e-mail's layout).

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function passwordResetEmail(input: {
  to: string;
  fullName: string;
  link: string;
  minutes: number;
}): MailMessage {
  const firstName = input.fullName.trim().split(/\s+/)[0] || input.fullName;
  const lifetime =
    input.minutes % 60 === 0
      ? `${input.minutes / 60} hour${input.minutes === 60 ? '' : 's'}`
      : `${input.minutes} minutes`;
  const intro = `Someone (we hope you) asked to reset the password of the CampusLoop account of ${input.to}.`;
  const rules = `The link works once and expires in ${lifetime}; a newer request replaces it. Setting a new password signs you out on every device.`;
  const ignore = 'If you did not ask for this, you can ignore this e-mail: your password stays as it is.';
  const text = [
    `Hi ${firstName},`,
    '',
    `${intro} Open this link to choose a new password:`,
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
<p>${escapeHtml(intro)}</p>
<p style="margin:24px 0"><a href="${link}" style="display:inline-block;background:#047857;color:#ffffff;font-weight:600;text-decoration:none;padding:12px 20px;border-radius:8px">Choose a new password</a></p>
<p style="font-size:14px;color:#57534e">Or paste this link into your browser:<br><a href="${link}" style="color:#047857;word-break:break-all">${link}</a></p>
<p style="font-size:14px;color:#57534e">${escapeHtml(rules)}</p>
<p style="font-size:14px;color:#57534e">${escapeHtml(ignore)}</p>
<p>The CampusLoop team</p>
</div>
</body>
</html>
`;
  return { to: input.to, subject: 'Reset your CampusLoop password', text, html };
}
