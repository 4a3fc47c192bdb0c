import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '#shared/schemas/auth.ts';
import type { ConversationSummary } from '#shared/schemas/chat.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { sessionKey } from '../features/auth/api.ts';
import { chatKeys } from '../features/chat/api.ts';
import { reservationKeys } from '../features/reservations/queries.ts';
import { CONVERSATIONS_KEY, RESERVATIONS_KEY, recordOfflineSnapshots } from './offline-recorder.ts';
import type { OfflineSnapshot, SnapshotStore } from './offline-snapshot.ts';

// The offline snapshot follows what the app shows, per person: written when My Reservations
// or the conversation list arrives, replaced when someone else signs in, deleted when the server says
// nobody is signed in, and kept when the server cannot be asked (offline).

const JORDAN = 'a0000000-0000-4000-8000-000000000001';
const MAYA = 'a0000000-0000-4000-8000-000000000002';
const PRIYA = 'a0000000-0000-4000-8000-000000000003';

const user = (id: string, fullName: string) => ({ id, fullName }) as SessionUser;
const party = (id: string, fullName: string) => ({ id, fullName, username: fullName, profileImage: null });

function reservation(borrowerId: string, providerId: string, status: Reservation['status']): Reservation {
  return {
    id: crypto.randomUUID(),
    itemId: crypto.randomUUID(),
    borrowerId,
    providerId,
    startDate: '2026-12-14',
    endDate: '2026-12-16',
    status,
    depositAmount: '0.00',
    rentalAmount: '0.00',
    serviceFeeAmount: '0.00',
    stripePaymentIntentId: null,
    pickupCode: status === 'approved' ? '312844' : null,
    declineReason: null,
    cancellationPolicy: 'flexible',
    cancelledBy: null,
    createdAt: '2026-11-24T10:00:00.000Z',
    respondBy: null,
    overdue: false,
    claim: null,
    pendingExtension: null,
    extraRentalAmount: '0.00',
    extraServiceFeeAmount: '0.00',
    pickedUpAt: null,
    handovers: [],
    rentalPeriod: null,
    rentalPayments: [],
    earlyReturn: null,
    item: { id: crypto.randomUUID(), title: 'Camping lantern', images: [], pickupMethod: 'meetup' },
    provider: party(providerId, providerId === MAYA ? 'Maya Chen' : 'Jordan Lee'),
    borrower: party(borrowerId, borrowerId === JORDAN ? 'Jordan Lee' : 'Maya Chen'),
  };
}

function conversation(buyerId: string, sellerId: string): ConversationSummary {
  return {
    id: crypto.randomUUID(),
    itemId: crypto.randomUUID(),
    buyerId,
    sellerId,
    lastMessageAt: '2026-11-24T10:00:00.000Z',
    createdAt: '2026-11-24T09:00:00.000Z',
    otherUser: party(sellerId, 'Maya Chen'),
    item: { id: crypto.randomUUID(), title: 'Camping lantern', images: [] },
    unreadCount: 1,
    lastMessage: { content: 'See you at 5', senderId: sellerId, createdAt: '2026-11-24T10:00:00.000Z' },
  };
}

function memoryStore() {
  let value: OfflineSnapshot | undefined;
  const store: SnapshotStore = {
    read: async () => (value ? structuredClone(value) : undefined),
    write: async (snapshot) => {
      value = structuredClone(snapshot);
    },
    clear: async () => {
      value = undefined;
    },
  };
  return { store, current: () => value };
}

function setup(signedOut = async () => true) {
  const queryClient = new QueryClient();
  const memory = memoryStore();
  const stop = recordOfflineSnapshots(queryClient, memory.store, signedOut);
  return { queryClient, ...memory, stop };
}

describe('the offline snapshot', () => {
  it('watches the same query keys as My Reservations and the conversation list', () => {
    expect([RESERVATIONS_KEY]).toEqual([...reservationKeys.all]);
    expect([CONVERSATIONS_KEY]).toEqual([...chatKeys.conversations]);
  });

  it('keeps the signed-in person’s reservations (the code only on their own borrowing) and conversations', async () => {
    const { queryClient, current } = setup();
    queryClient.setQueryData(sessionKey, user(JORDAN, 'Jordan Lee'));
    queryClient.setQueryData(reservationKeys.all, [
      reservation(JORDAN, MAYA, 'approved'),
      reservation(MAYA, JORDAN, 'approved'),
    ]);
    queryClient.setQueryData(chatKeys.conversations, [conversation(JORDAN, MAYA)]);
    await vi.waitFor(() => expect(current()?.conversations).toBeDefined());
    const snapshot = current()!;
    expect(snapshot.user).toEqual({ id: JORDAN, fullName: 'Jordan Lee' });
    expect(snapshot.reservations?.list.map((r) => [r.role, r.otherName, r.pickupCode])).toEqual([
      ['borrower', 'Maya Chen', '312844'],
      ['provider', 'Maya Chen', null],
    ]);
    expect(snapshot.conversations?.list[0]).toMatchObject({
      otherName: 'Maya Chen',
      lastMessage: 'See you at 5',
    });
    expect(Date.parse(snapshot.reservations!.savedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('keeps nothing for a visitor, and nothing that is not the signed-in person’s own', async () => {
    const { queryClient, current } = setup();
    queryClient.setQueryData(reservationKeys.all, [reservation(JORDAN, MAYA, 'approved')]);
    queryClient.setQueryData(sessionKey, user(PRIYA, 'Priya Patel'));
    // An answer that began before Priya signed in (Jordan's) is not hers.
    queryClient.setQueryData(reservationKeys.all, [reservation(JORDAN, MAYA, 'approved')]);
    queryClient.setQueryData(chatKeys.conversations, [conversation(PRIYA, MAYA)]);
    await vi.waitFor(() => expect(current()?.conversations).toBeDefined());
    expect(current()?.reservations).toBeUndefined();
  });

  it('drops the last person’s snapshot when someone else signs in', async () => {
    const { queryClient, current } = setup();
    queryClient.setQueryData(sessionKey, user(JORDAN, 'Jordan Lee'));
    queryClient.setQueryData(reservationKeys.all, [reservation(JORDAN, MAYA, 'approved')]);
    await vi.waitFor(() => expect(current()?.reservations).toBeDefined());
    queryClient.setQueryData(sessionKey, user(PRIYA, 'Priya Patel'));
    await vi.waitFor(() => expect(current()).toBeUndefined());
  });

  it('deletes it when the server says nobody is signed in, keeps it when the server cannot be asked', async () => {
    let serverAnswer = false;
    const { queryClient, current } = setup(async () => serverAnswer);
    queryClient.setQueryData(sessionKey, user(JORDAN, 'Jordan Lee'));
    queryClient.setQueryData(reservationKeys.all, [reservation(JORDAN, MAYA, 'approved')]);
    await vi.waitFor(() => expect(current()?.reservations).toBeDefined());

    // Offline: the session query answers null, the server cannot confirm it.
    queryClient.setQueryData(sessionKey, null);
    queryClient.setQueryData(sessionKey, user(JORDAN, 'Jordan Lee'));
    queryClient.setQueryData(chatKeys.conversations, [conversation(JORDAN, MAYA)]);
    await vi.waitFor(() => expect(current()?.conversations).toBeDefined());
    expect(current()?.reservations).toBeDefined();

    // Signed out: the server says so.
    serverAnswer = true;
    queryClient.setQueryData(sessionKey, null);
    await vi.waitFor(() => expect(current()).toBeUndefined());
  });
});
