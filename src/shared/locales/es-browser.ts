import type { Messages } from '@lingui/core';
import { messages as account } from './es/account.ts';
import { messages as app } from './es/app.ts';
import { messages as community } from './es/community.ts';
import { messages as items } from './es/items.ts';
import { messages as pages } from './es/pages.ts';
import { messages as reservations } from './es/reservations.ts';
import { messages as shared } from './es/shared.ts';

// The Spanish catalogues the browser's code is written with (lingui.config.ts: the web app's areas and
// src/shared), without the server's two: what the server says reaches the browser already in Spanish
// (decision 052), so the page a Spanish reader waits for before its first render carries none of them
// (decision 063). A message the web and the server both write is in both areas' catalogues.
export const messages: Messages = {
  ...app,
  ...pages,
  ...items,
  ...reservations,
  ...account,
  ...community,
  ...shared,
};
