// The whole data model (spec §3). drizzle-kit reads this file to generate migrations.
export * from './chat.ts';
export * from './community.ts';
export * from './deliveries.ts';
export * from './disputes.ts';
export * from './extensions.ts';
export * from './handovers.ts';
export * from './idempotency.ts';
export * from './items.ts';
export * from './ledger.ts';
export * from './notifications.ts';
export * from './payments.ts';
export * from './payouts.ts';
export * from './rate-limits.ts';
export * from './reservations.ts';
export * from './test-payments.ts';
export * from './users.ts';
export * from './waitlist.ts';
