import type { Messages } from '@lingui/core';
import { messages as account } from './es/account.ts';
import { messages as app } from './es/app.ts';
import { messages as community } from './es/community.ts';
import { messages as items } from './es/items.ts';
import { messages as pages } from './es/pages.ts';
import { messages as reservations } from './es/reservations.ts';
import { messages as server } from './es/server.ts';
import { messages as serverBookings } from './es/server-bookings.ts';
import { messages as shared } from './es/shared.ts';

// Every Spanish catalogue (compiled by `npm run i18n` from the .po files beside them), as one: the
// browser loads this module only for Spanish, the server holds it for everyone.
export const messages: Messages = {
  ...app,
  ...pages,
  ...items,
  ...reservations,
  ...account,
  ...community,
  ...shared,
  ...server,
  ...serverBookings,
};
