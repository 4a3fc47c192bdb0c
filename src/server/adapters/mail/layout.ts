import type { MailMessage } from './mailer.ts';

// The layout of CampusLoop's e-mails: plain text first, the same words as simple HTML (the verification
// e-mail's look). Features write the words; this writes the message.

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const firstNameOf = (fullName: string) => fullName.trim().split(/\s+/)[0] || fullName;

export function brandedEmail(input: {
  to: string;
  fullName: string;
  subject: string;
  paragraphs: string[];
  button?: { label: string; link: string };
  notes?: string[];
}): MailMessage {
  const firstName = firstNameOf(input.fullName);
  const text = [
    `Hi ${firstName},`,
    '',
    ...input.paragraphs.flatMap((p) => [p, '']),
    ...(input.button ? [input.button.link, ''] : []),
    ...(input.notes ?? []).flatMap((p) => [p, '']),
    'The CampusLoop team',
    '',
  ].join('\n');
  const link = input.button && escapeHtml(input.button.link);
  const small = 'font-size:14px;color:#57534e';
  const html = `<!doctype html>
<html lang="en">
<body style="margin:0;padding:24px;background:#fafaf9;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#1c1917;line-height:1.5">
<div style="max-width:520px;margin:0 auto;background:#ffffff;border:1px solid #e7e5e4;border-radius:16px;padding:24px">
<p style="margin:0 0 16px;font-size:20px;font-weight:700;color:#065f46">CampusLoop</p>
<p>Hi ${escapeHtml(firstName)},</p>
${input.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${
  input.button && link
    ? `<p style="margin:24px 0"><a href="${link}" style="display:inline-block;background:#047857;color:#ffffff;font-weight:600;text-decoration:none;padding:12px 20px;border-radius:8px">${escapeHtml(input.button.label)}</a></p>
<p style="${small}">Or paste this link into your browser:<br><a href="${link}" style="color:#047857;word-break:break-all">${link}</a></p>`
    : ''
}
${(input.notes ?? []).map((p) => `<p style="${small}">${escapeHtml(p)}</p>`).join('\n')}
<p>The CampusLoop team</p>
</div>
</body>
</html>
`;
  return { to: input.to, subject: input.subject, text, html };
}
