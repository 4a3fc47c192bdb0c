import { describe, it } from 'vitest';
import { expectAccessible, setupBrowser, signIn } from './helpers.ts';

const b = setupBrowser();

// Messages are looked for in the conversation itself: the sidebar's preview may show the same text.
describe('chat journey', () => {
  it('opens a chat from an item; messages appear live on both sides; the badge counts unread and clears', async () => {
    const borrower = await b.newPage({ width: 375, height: 812 });
    const lender = await b.newPage();
    await signIn(borrower, 'sam.rivera@berkeley.edu');
    await signIn(lender, 'alex.kim@berkeley.edu');

    await borrower.goto('/browse?q=waffle');
    await borrower
      .getByRole('link', { name: /Waffle maker/ })
      .first()
      .click();
    await borrower.getByRole('button', { name: 'Chat with Seller' }).click();
    await borrower.getByText('Redirecting to your conversation...', { exact: true }).waitFor();
    await borrower.waitForURL(/\/chat\?conversation=/);
    await borrower.getByText('No messages yet. Start the conversation!').waitFor();
    const box = borrower.getByLabel('Message', { exact: true });
    await box.fill('Hi Alex! Is the waffle maker free this Sunday?');
    await box.press('Enter');
    await borrower
      .getByRole('list', { name: 'Messages' })
      .getByText('Hi Alex! Is the waffle maker free this Sunday?')
      .waitFor();
    await expectAccessible(borrower);

    // Alex has not opened it: the header badge counts it, pushed on the live socket well before the
    // 10 s poll would have noticed.
    await lender.getByRole('button', { name: 'Messages, 1 unread' }).waitFor({ timeout: 5_000 });
    await lender.goto('/chat');
    await lender.getByText('Sam Rivera').first().click();
    await lender
      .getByRole('list', { name: 'Messages' })
      .getByText('Hi Alex! Is the waffle maker free this Sunday?')
      .waitFor();
    await lender.getByRole('button', { name: 'Messages', exact: true }).waitFor({ timeout: 5_000 });

    // The reply arrives live in Sam's open conversation, without a reload.
    const reply = lender.getByLabel('Message', { exact: true });
    await reply.fill('Yes! Sunday works. Meet at Clark Kerr at noon?');
    await reply.press('Enter');
    await borrower
      .getByRole('list', { name: 'Messages' })
      .getByText('Yes! Sunday works. Meet at Clark Kerr at noon?')
      .waitFor();
    // Sam is looking at the conversation, so the reply is read on arrival and the badge stays clear.
    await borrower.waitForTimeout(1000);
    await borrower.getByRole('button', { name: 'Messages', exact: true }).waitFor({ timeout: 5_000 });
    await expectAccessible(lender);
  });
});
