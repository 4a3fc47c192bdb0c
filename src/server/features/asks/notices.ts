import { msg } from '@lingui/core/macro';
import { formatDayLabel } from '#shared/format.ts';
import type { NoticeText } from '../../i18n.ts';
import { wording } from '../../wordings.ts';

// What asks say to people: registered wordings, written again in the reader's language (decision 052).

export const offerText = wording(
  'asks.offerText',
  (lender: string, item: string, ask: string): NoticeText => ({
    title: msg`Someone has what you asked for`,
    message: msg`${lender} offers ${item} for your ask "${ask}". Open the Asked for board to reserve it.`,
  }),
);

export const matchText = wording(
  'asks.matchText',
  (asker: string, ask: string, startDate: string, endDate: string): NoticeText => {
    const start = formatDayLabel(startDate);
    const end = formatDayLabel(endDate);
    return {
      title: msg`A neighbour asks for something you lend`,
      message:
        startDate === endDate
          ? msg`${asker} asks for "${ask}" on ${start}. Offer your listing on the Asked for board.`
          : msg`${asker} asks for "${ask}" from ${start} to ${end}. Offer your listing on the Asked for board.`,
    };
  },
);

/** The chat message an offer says, in the offerer's language (a person's words, stored as written). */
export const offerMessage = (item: string, ask: string) =>
  msg`I have one: ${item}, for your ask "${ask}". You can reserve it from the Asked for board.`;
