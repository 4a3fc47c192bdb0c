import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { LOCALES } from '../../../shared/i18n.ts';
import { createdAt, id, oneOf } from './columns.ts';

export const users = pgTable(
  'users',
  {
    id: id(),
    /** Stored lower-cased; the unique index on lower(email) guards against a mixed-case insert all the same. */
    email: text('email').notNull(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    fullName: text('full_name').notNull(),
    /** The university's primary domain, e.g. 'stanford.edu'. */
    campus: text('campus').notNull(),
    profileImage: text('profile_image'),
    isVerified: boolean('is_verified').notNull().default(false),
    stripeCustomerId: text('stripe_customer_id'),
    /** Set by an admin; a suspended user cannot sign in and their sessions are ended. */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    /**
     * Set when the person deleted their account (decision 023): the row stays so that their
     * messages, reviews, reservations and billing keep a party, but everything personal is erased and
     * the name reads "Former student".
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /**
     * The language the person reads CampusLoop in (shared/i18n.ts): their e-mails and
     * notifications are written in it, and it follows them to a new device. Set at sign-up from the
     * browser's language, changed by the language switch.
     */
    locale: text('locale').notNull().default('en'),
    createdAt: createdAt(),
  },
  (t) => [
    check('users_locale_check', oneOf(t.locale, LOCALES)),
    uniqueIndex('users_email_lower_unique').on(sql`lower(${t.email})`),
    uniqueIndex('users_username_lower_unique').on(sql`lower(${t.username})`),
    uniqueIndex('users_stripe_customer_unique').on(t.stripeCustomerId),
    index('users_campus_idx').on(t.campus),
    // The few suspended owners, whose items Browse's counts subtract (item_counts).
    index('users_suspended_idx').on(t.id).where(sql`${t.suspendedAt} is not null`),
  ],
);

/** A signed-in browser. Only the SHA-256 of the cookie's random token is kept, so a leaked table grants nothing. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /**
     * How Account settings names the session: the token's hash never leaves the server, and a
     * random id tells nothing about it.
     */
    publicId: uuid('public_id').notNull().defaultRandom(),
    /** The browser and system it was started on, summarised from the User-Agent ('Chrome on Android'). */
    device: text('device'),
    /** When it was last used, to a few minutes (decision 022): not written on every request. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('sessions_user_idx').on(t.userId),
    index('sessions_expires_idx').on(t.expiresAt),
    uniqueIndex('sessions_public_id_unique').on(t.publicId),
  ],
);

/** A verification link sent by e-mail. Only the SHA-256 of its token is kept; a link works once and expires. */
export const emailVerifications = pgTable(
  'email_verifications',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /**
     * A new registration for the address of an account nobody verified (decision 023): who proves the
     * mailbox by opening this link takes the account over with this name, username and password (hashed).
     */
    pendingFullName: text('pending_full_name'),
    pendingUsername: text('pending_username'),
    pendingPasswordHash: text('pending_password_hash'),
  },
  (t) => [index('email_verifications_user_idx').on(t.userId, t.createdAt.desc())],
);

/**
 * A password reset link sent by e-mail. Only the SHA-256 of its token is kept; a link works once, expires
 * after an hour, and a newer request expires the older open ones.
 */
export const passwordResets = pgTable(
  'password_resets',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('password_resets_user_idx').on(t.userId, t.createdAt.desc())],
);

/**
 * A link sent to the new address of an e-mail change. The address replaces the old one only
 * when the link is followed; only its token's SHA-256 is kept, it works once and a newer request expires it.
 */
export const emailChanges = pgTable(
  'email_changes',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    newEmail: text('new_email').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('email_changes_user_idx').on(t.userId, t.createdAt.desc())],
);

/**
 * Which e-mails a person wants, one row per person and kind. Only choices made are stored: a
 * kind without a row takes its default from EMAIL_KINDS. The lifecycle issue adds kinds and channels.
 */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    email: boolean('email').notNull(),
    /** Push for this kind; null is the default (on, once a device allowed it). */
    push: boolean('push'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);
