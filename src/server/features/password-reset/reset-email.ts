import { plural, select, t } from '@lingui/core/macro';
import type { Locale } from '#shared/i18n.ts';
import type { MailMessage } from '../../adapters/mail/mailer.ts';
import { inLocale } from '../../i18n.ts';

// The e-mail with the password reset link: plain text first, the same words as simple HTML
// (the verification e-mail's layout). In the account's language (`locale`).

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function passwordResetEmail(input: {
  to: string;
  locale: Locale;
  fullName: string;
  link: string;
  minutes: number;
}): MailMessage {
  return inLocale(input.locale, () => {
    const firstName = input.fullName.trim().split(/\s+/)[0] || input.fullName;
    const { to } = input;
    // How long the link lasts: '1 hour', '2 hours', '45 minutes'.
    const { minutes } = input;
    const hours = minutes / 60;
    const unit = minutes % 60 === 0 ? 'hours' : 'minutes';
    const greeting = t`Hi ${firstName},`;
    const intro = t`Someone (we hope you) asked to reset the password of the CampusLoop account of ${to}.`;
    const openLink = t`Open this link to choose a new password:`;
    const rules = t`The link works once and expires in ${select(unit, {
      hours: plural(hours, { one: '# hour', other: '# hours' }),
      other: plural(minutes, { one: '# minute', other: '# minutes' }),
    })}; a newer request replaces it. Setting a new password signs you out on every device.`;
    const ignore = t`If you did not ask for this, you can ignore this e-mail: your password stays as it is.`;
    const signature = t`The CampusLoop team`;
    const button = t`Choose a new password`;
    const pasteLink = t`Or paste this link into your browser:`;
    const text = [
      greeting,
      '',
      `${intro} ${openLink}`,
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
<p>${escapeHtml(intro)}</p>
<p style="margin:24px 0"><a href="${link}" style="display:inline-block;background:#047857;color:#ffffff;font-weight:600;text-decoration:none;padding:12px 20px;border-radius:8px">${escapeHtml(button)}</a></p>
<p style="font-size:14px;color:#57534e">${escapeHtml(pasteLink)}<br><a href="${link}" style="color:#047857;word-break:break-all">${link}</a></p>
<p style="font-size:14px;color:#57534e">${escapeHtml(rules)}</p>
<p style="font-size:14px;color:#57534e">${escapeHtml(ignore)}</p>
<p>${escapeHtml(signature)}</p>
</div>
</body>
</html>
`;
    return { to: input.to, subject: t`Reset your CampusLoop password`, text, html };
  });
}
