import { plural, t } from '@lingui/core/macro';
import { campusAt, campusToday } from '#shared/calendar.ts';
import { formatDayLabel, formatPrice } from '#shared/format.ts';
import type { Locale } from '#shared/i18n.ts';
import { EMAIL_KINDS } from '#shared/schemas/account.ts';
import { brandedEmail } from '../../adapters/mail/layout.ts';
import type { Mailer, MailMessage } from '../../adapters/mail/mailer.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { i18n, inLocale } from '../../i18n.ts';
import { deliveryService } from '../deliveries/service.ts';
import * as queries from './queries.ts';

// The daily digest of a campus's asks, for the people who turned "Asks from my campus — daily digest"
// on. At most one e-mail a day about asks per person: the day is claimed in the database before the
// e-mail goes, so two instances or a round run twice send one; a failed send gives the day back.

/** The campus hour after which the day's digest goes (the evening: the day's asks are in). */
export const DIGEST_HOUR = 18;
/** The most asks one e-mail lists. */
const LISTED = 10;

export interface DigestDeps {
  db: Db;
  mailer: Mailer;
  clock: Clock;
  timeZone: string;
  appUrl: string;
}

type DigestAsk = Awaited<ReturnType<typeof queries.asksCreatedBetween>>[number];

function digestEmail(input: {
  to: { email: string; fullName: string; locale: Locale };
  asks: DigestAsk[];
  appUrl: string;
  token: string;
}): MailMessage {
  const query = `token=${encodeURIComponent(input.token)}`;
  return inLocale(input.to.locale, () => {
    const count = input.asks.length;
    const lines = input.asks.slice(0, LISTED).map((ask) => {
      const who = ask.authorName.trim().split(/\s+/)[0] ?? '';
      const start = formatDayLabel(ask.startDate);
      const end = formatDayLabel(ask.endDate);
      const price = ask.maxPriceCents === 0 ? t`free only` : t`up to ${formatPrice(ask.maxPriceCents / 100)}`;
      const title = ask.title;
      return ask.startDate === ask.endDate
        ? t`${who} asks for "${title}" on ${start} (${price}).`
        : t`${who} asks for "${title}" from ${start} to ${end} (${price}).`;
    });
    return brandedEmail({
      to: input.to.email,
      locale: input.to.locale,
      fullName: input.to.fullName,
      subject: t`${plural(count, { one: '# new ask', other: '# new asks' })} from your campus`,
      paragraphs: [t`Students of your campus asked for these today. Do you have one to lend?`, ...lines],
      button: { label: t`Open the Asked for board`, link: `${input.appUrl}/asks` },
      notes: [t`We write at most once a day about asks.`],
      unsubscribe: {
        link: `${input.appUrl}/api/unsubscribe?${query}`,
        postLink: `${input.appUrl}/api/unsubscribe?${query}`,
        what: i18n._(EMAIL_KINDS.find((k) => k.kind === 'asks')!.label),
      },
    });
  });
}

/**
 * One round: after DIGEST_HOUR on the campus, everyone who wants the digest and has not had an asks
 * e-mail today gets the asks of the last day on their campus (not their own). Answers how many went.
 */
export async function sendDigests(deps: DigestDeps): Promise<number> {
  const now = deps.clock.now();
  const today = campusToday(deps.timeZone, now).date;
  if (now < campusAt(today, DIGEST_HOUR, deps.timeZone)) return 0;
  const since = new Date(now.getTime() - 24 * 3600_000);
  const asks = await queries.asksCreatedBetween(deps.db, since, now, today);
  if (!asks.length) return 0;
  const byCampus = new Map<string, DigestAsk[]>();
  for (const ask of asks) byCampus.set(ask.campus, [...(byCampus.get(ask.campus) ?? []), ask]);
  let sent = 0;
  for (const reader of await queries.digestReaders(deps.db, [...byCampus.keys()])) {
    const theirs = (byCampus.get(reader.campus) ?? []).filter((ask) => ask.userId !== reader.id);
    if (!theirs.length) continue;
    if (!(await queries.claimEmailDay(deps.db, reader.id, today))) continue;
    try {
      const token = await deliveryService.unsubscribeToken(deps.db, reader.id, 'asks');
      await deps.mailer.send(
        digestEmail({
          to: { ...reader, locale: reader.locale as Locale },
          asks: theirs,
          appUrl: deps.appUrl,
          token,
        }),
      );
      sent++;
    } catch (error) {
      // Not sent: the day is free again, so the next round tries once more.
      await queries.releaseEmailDay(deps.db, reader.id, today);
      throw error;
    }
  }
  return sent;
}
