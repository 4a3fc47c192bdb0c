import { t } from '@lingui/core/macro';
import type { Locale } from '#shared/i18n.ts';
import { brandedEmail } from '../../adapters/mail/layout.ts';
import type { MailMessage } from '../../adapters/mail/mailer.ts';
import { inLocale } from '../../i18n.ts';

// The e-mails of Account settings, in the layout of every CampusLoop e-mail. In the
// language of the account they are about (`locale`).

/** To the new address: the link that makes it the account's. */
export function emailChangeLinkEmail(input: {
  to: string;
  locale: Locale;
  fullName: string;
  link: string;
  hours: number;
}): MailMessage {
  const { to, hours } = input;
  return inLocale(input.locale, () =>
    brandedEmail({
      to,
      locale: input.locale,
      fullName: input.fullName,
      subject: t`Confirm your new CampusLoop e-mail address`,
      paragraphs: [
        t`You asked to use ${to} for your CampusLoop account. Open this link to confirm it; until then your old address stays in use:`,
      ],
      button: { label: t`Confirm this address`, link: input.link },
      notes: [
        t`The link works once and expires in ${hours} hours; a newer request replaces it.`,
        t`If you did not ask for this, you can ignore this e-mail: nothing changes.`,
      ],
    }),
  );
}

/**
 * To the new address when an account already uses it: the same subject as the link's e-mail, so the asker
 * learns only what the mailbox's holder learns (decision 022). In the asker's language, as the link's is.
 */
export function emailAlreadyUsedEmail(input: { to: string; locale: Locale }): MailMessage {
  const { to } = input;
  return inLocale(input.locale, () =>
    brandedEmail({
      to,
      locale: input.locale,
      fullName: null,
      subject: t`Confirm your new CampusLoop e-mail address`,
      paragraphs: [
        t`Someone asked to move a CampusLoop account to ${to}, but an account already uses this address, so nothing has changed.`,
        t`If that was you, sign in with this address instead, or reset its password if you have forgotten it.`,
      ],
      notes: [t`If you did not ask for this, you can ignore this e-mail.`],
    }),
  );
}

/** To the old address once the new one is confirmed. */
export function emailChangedNotice(input: {
  to: string;
  locale: Locale;
  fullName: string;
  newEmail: string;
  supportEmail: string;
}): MailMessage {
  const { to, newEmail, supportEmail } = input;
  return inLocale(input.locale, () =>
    brandedEmail({
      to,
      locale: input.locale,
      fullName: input.fullName,
      subject: t`Your CampusLoop e-mail address was changed`,
      paragraphs: [
        t`The e-mail address of your CampusLoop account is now ${newEmail}. We will not write to ${to} any more.`,
      ],
      notes: [
        t`If you did not make this change, write to ${supportEmail} at once and we will help you take the account back.`,
      ],
    }),
  );
}

/** To the account's address when its password is changed in Account settings (if they want it). */
export function passwordChangedNotice(input: {
  to: string;
  locale: Locale;
  fullName: string;
  device: string;
  resetLink: string;
}): MailMessage {
  const { device, resetLink } = input;
  return inLocale(input.locale, () =>
    brandedEmail({
      to: input.to,
      locale: input.locale,
      fullName: input.fullName,
      subject: t`Your CampusLoop password was changed`,
      paragraphs: [
        t`The password of your CampusLoop account was changed just now in Account settings (${device}). Every other device was signed out.`,
      ],
      notes: [
        t`If this was not you, reset your password at once: ${resetLink}`,
        t`You can turn these notes off in Account settings, under E-mail notifications.`,
      ],
    }),
  );
}

/** To the old address once the account is deleted (decision 023): what went, what stays. */
export function accountDeletedNotice(input: {
  to: string;
  locale: Locale;
  fullName: string;
  supportEmail: string;
}): MailMessage {
  const { supportEmail } = input;
  return inLocale(input.locale, () =>
    brandedEmail({
      to: input.to,
      locale: input.locale,
      fullName: input.fullName,
      subject: t`Your CampusLoop account was deleted`,
      paragraphs: [
        t`Your CampusLoop account is deleted. Your listings are gone, you are signed out everywhere, and your name, e-mail address, username, photo and password are erased.`,
        t`Messages and reviews you wrote stay where others can read them, under "Former student". Billing records stay as the law requires, without your name.`,
      ],
      notes: [
        t`If you did not delete your account, write to ${supportEmail} at once.`,
        t`This is the last e-mail we send to this address.`,
      ],
    }),
  );
}
