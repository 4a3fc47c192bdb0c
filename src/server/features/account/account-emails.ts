import { brandedEmail } from '../../adapters/mail/layout.ts';
import type { MailMessage } from '../../adapters/mail/mailer.ts';

// The e-mails of Account settings (issue 15), in the layout of every CampusLoop e-mail.

/** To the new address: the link that makes it the account's. */
export function emailChangeLinkEmail(input: {
  to: string;
  fullName: string;
  link: string;
  hours: number;
}): MailMessage {
  return brandedEmail({
    to: input.to,
    fullName: input.fullName,
    subject: 'Confirm your new CampusLoop e-mail address',
    paragraphs: [
      `You asked to use ${input.to} for your CampusLoop account. Open this link to confirm it; until then your old address stays in use:`,
    ],
    button: { label: 'Confirm this address', link: input.link },
    notes: [
      `The link works once and expires in ${input.hours} hours; a newer request replaces it.`,
      'If you did not ask for this, you can ignore this e-mail: nothing changes.',
    ],
  });
}

/**
 * To the new address when an account already uses it: the same subject as the link's e-mail, so the asker
 * learns only what the mailbox's holder learns (decision 022).
 */
export function emailAlreadyUsedEmail(input: { to: string; fullName: string }): MailMessage {
  return brandedEmail({
    to: input.to,
    fullName: 'there',
    subject: 'Confirm your new CampusLoop e-mail address',
    paragraphs: [
      `Someone asked to move a CampusLoop account to ${input.to}, but an account already uses this address, so nothing has changed.`,
      'If that was you, sign in with this address instead, or reset its password if you have forgotten it.',
    ],
    notes: ['If you did not ask for this, you can ignore this e-mail.'],
  });
}

/** To the old address once the new one is confirmed. */
export function emailChangedNotice(input: {
  to: string;
  fullName: string;
  newEmail: string;
  supportEmail: string;
}): MailMessage {
  return brandedEmail({
    to: input.to,
    fullName: input.fullName,
    subject: 'Your CampusLoop e-mail address was changed',
    paragraphs: [
      `The e-mail address of your CampusLoop account is now ${input.newEmail}. We will not write to ${input.to} any more.`,
    ],
    notes: [
      `If you did not make this change, write to ${input.supportEmail} at once and we will help you take the account back.`,
    ],
  });
}

/** To the account's address when its password is changed in Account settings (if they want it). */
export function passwordChangedNotice(input: {
  to: string;
  fullName: string;
  device: string;
  resetLink: string;
}): MailMessage {
  return brandedEmail({
    to: input.to,
    fullName: input.fullName,
    subject: 'Your CampusLoop password was changed',
    paragraphs: [
      `The password of your CampusLoop account was changed just now in Account settings (${input.device}). Every other device was signed out.`,
    ],
    notes: [
      `If this was not you, reset your password at once: ${input.resetLink}`,
      'You can turn these notes off in Account settings, under E-mail notifications.',
    ],
  });
}

/** To the old address once the account is deleted (decision 023): what went, what stays. */
export function accountDeletedNotice(input: {
  to: string;
  fullName: string;
  supportEmail: string;
}): MailMessage {
  return brandedEmail({
    to: input.to,
    fullName: input.fullName,
    subject: 'Your CampusLoop account was deleted',
    paragraphs: [
      'Your CampusLoop account is deleted. Your listings are gone, you are signed out everywhere, and your name, e-mail address, username, photo and password are erased.',
      'Messages and reviews you wrote stay where others can read them, under "Former student". Billing records stay as the law requires, without your name.',
    ],
    notes: [
      `If you did not delete your account, write to ${input.supportEmail} at once.`,
      'This is the last e-mail we send to this address.',
    ],
  });
}
