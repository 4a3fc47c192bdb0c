import WebSocket from 'ws';
import type { Fixtures } from '../fixtures.ts';
import { type LatencySummary, Samples } from '../load.ts';

// Chat: one WebSocket per person, both people of each conversation connected, messages sent at a
// steady total rate from random sockets. Delivery latency is from `send` on one socket to `newMessage`
// on the other person's socket (both in this process, one clock); the server's memory is read before
// the sockets connect, once they are all open, and at its peak while messages flow.

export interface ChatResult {
  sockets: number;
  connectSeconds: number;
  messagesPerSecond: number;
  seconds: number;
  sent: number;
  /** What the sender managed (a loaded machine delays its timer). */
  sentPerSecond: number;
  delivered: number;
  /** Sent but never delivered to the other person within the grace period. */
  lost: number;
  errors: number;
  deliveryMs: LatencySummary;
  confirmMs: LatencySummary;
  rssMb: { before: number | null; connected: number | null; peak: number | null };
  /** (connected − before) / sockets, in KB. */
  kbPerSocket: number | null;
}

const LINES = [
  'Is it still free on Saturday?',
  'Yes! Pick up at the library at 2?',
  'Works for me, see you there.',
  'Could I keep it one more day?',
  'Sure, no problem.',
];

interface Party {
  socket: WebSocket;
  userId: string;
  conversationId: string;
}

function open(url: string, cookie: string, origin: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers: { cookie, origin } });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
    socket.once('close', (code) => reject(new Error(`socket closed at once (${code})`)));
  });
}

export async function runChat(options: {
  url: string;
  fixtures: Fixtures;
  sockets: number;
  messagesPerSecond: number;
  seconds: number;
  rssMb: () => number | null;
}): Promise<ChatResult> {
  const wsUrl = `${options.url.replace(/^http/, 'ws')}/ws`;
  const pairs = options.fixtures.chatPairs.slice(0, Math.floor(options.sockets / 2));
  if (pairs.length * 2 < options.sockets) {
    throw new Error(
      `only ${pairs.length * 2} people for ${options.sockets} sockets: seed more conversations`,
    );
  }
  const before = options.rssMb();
  const delivery = new Samples();
  const confirm = new Samples();
  const sentAt = new Map<number, number>();
  let delivered = 0;
  let errors = 0;

  const connectStarted = performance.now();
  const parties: Party[] = [];
  // Fifty upgrades at a time (25 pairs), as a crowd of browsers would arrive rather than all in one tick.
  for (let i = 0; i < pairs.length; i += 25) {
    const batch = pairs.slice(i, i + 25);
    const opened = await Promise.all(
      batch.map(async (pair) => {
        const [buyer, seller] = await Promise.all([
          open(wsUrl, pair.buyer.cookie, options.url),
          open(wsUrl, pair.seller.cookie, options.url),
        ]);
        return [
          { socket: buyer, userId: pair.buyer.userId, conversationId: pair.conversationId },
          { socket: seller, userId: pair.seller.userId, conversationId: pair.conversationId },
        ];
      }),
    );
    parties.push(...opened.flat());
  }
  const connectSeconds = (performance.now() - connectStarted) / 1000;

  for (const party of parties) {
    party.socket.on('message', (raw) => {
      const event = JSON.parse(String(raw)) as {
        type: string;
        tempId?: string;
        message?: { content: string; senderId: string };
      };
      const now = performance.now();
      if (event.type === 'messageConfirm' && event.tempId) {
        const at = sentAt.get(Number(event.tempId));
        if (at !== undefined) confirm.push(now - at);
      } else if (event.type === 'newMessage' && event.message) {
        // Only the other person's copy counts as delivered (the sender's own sockets get one too).
        const seq = Number(/#(\d+)$/.exec(event.message.content)?.[1]);
        const at = sentAt.get(seq);
        if (at !== undefined && event.message.senderId !== party.userId) {
          delivery.push(now - at);
          delivered++;
          sentAt.delete(seq);
        }
      } else if (event.type === 'error') {
        errors++;
      }
    });
  }
  await new Promise((r) => setTimeout(r, 1000));
  const connected = options.rssMb();
  let peak = connected;
  const sampler = setInterval(() => {
    const rss = options.rssMb();
    if (rss !== null && (peak === null || rss > peak)) peak = rss;
  }, 250);

  // Messages leave at a steady rate, from a different random socket each time.
  let seq = 0;
  const tickMs = 10;
  const perTick = (options.messagesPerSecond * tickMs) / 1000;
  let owed = 0;
  const sendStarted = performance.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (performance.now() - sendStarted >= options.seconds * 1000) {
        clearInterval(timer);
        resolve();
        return;
      }
      owed += perTick;
      for (; owed >= 1; owed--) {
        const party = parties[Math.floor(Math.random() * parties.length)]!;
        const n = ++seq;
        sentAt.set(n, performance.now());
        party.socket.send(
          JSON.stringify({
            type: 'sendMessage',
            conversationId: party.conversationId,
            content: `${LINES[n % LINES.length]} #${n}`,
            tempId: String(n),
          }),
        );
      }
    }, tickMs);
  });
  const seconds = (performance.now() - sendStarted) / 1000;
  // Stragglers: up to five seconds for what is still on its way.
  const graceUntil = performance.now() + 5000;
  while (sentAt.size > 0 && performance.now() < graceUntil) await new Promise((r) => setTimeout(r, 50));
  clearInterval(sampler);
  const lost = sentAt.size;
  await Promise.all(
    parties.map(
      (p) =>
        new Promise<void>((resolve) => {
          p.socket.once('close', () => resolve());
          p.socket.close();
        }),
    ),
  );
  return {
    sockets: parties.length,
    connectSeconds: Math.round(connectSeconds * 100) / 100,
    messagesPerSecond: options.messagesPerSecond,
    seconds: Math.round(seconds * 100) / 100,
    sent: seq,
    sentPerSecond: Math.round(seq / seconds),
    delivered,
    lost,
    errors,
    deliveryMs: delivery.summary(),
    confirmMs: confirm.summary(),
    rssMb: { before, connected, peak },
    kbPerSocket:
      before !== null && connected !== null
        ? Math.round(((connected - before) * 1024) / parties.length)
        : null,
  };
}
