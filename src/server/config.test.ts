import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('runs locally with no settings at all', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 5000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      cookieSecure: false,
    });
    expect(config.dataDir).toMatch(/data$/);
  });

  it('reads every setting it is given, treating empty strings as unset', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://u@db:5432/campusloop',
      COOKIE_SECURE: 'true',
      APP_ORIGINS: 'http://localhost:5173, https://campusloop.app',
      AUTH_RATE_LIMIT: '',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'postgres://u@db:5432/campusloop',
      cookieSecure: true,
      appOrigins: ['http://localhost:5173', 'https://campusloop.app'],
      authRateLimit: { max: 10, windowMs: 60_000 },
    });
  });

  it('refuses bad settings with one readable line each', () => {
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        COOKIE_SECURE: 'maybe',
        CAMPUS_TIME_ZONE: 'Mars/Olympus',
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const { problems } = error as ConfigError;
      expect(problems).toEqual([
        'PORT: must be a port number',
        'DATABASE_URL: must start with postgres:// or postgresql://',
        'COOKIE_SECURE: must be true or false',
        'CAMPUS_TIME_ZONE: must be an IANA time zone such as America/Los_Angeles',
      ]);
    }
  });

  it('reads ADMIN_EMAILS as a lower-cased list, and refuses what is not an e-mail', () => {
    expect(loadConfig({ ADMIN_EMAILS: ' Dean@Stanford.edu, ops@campusloop.app ,' }).adminEmails).toEqual([
      'dean@stanford.edu',
      'ops@campusloop.app',
    ]);
    expect(() => loadConfig({ ADMIN_EMAILS: 'dean@stanford.edu, nobody' })).toThrow(
      'ADMIN_EMAILS: must be a comma-separated list of e-mail addresses (not nobody)',
    );
  });

  it('makes the demo moderator the admin only where the demo campus is loaded (decision 009)', () => {
    // npm start on a fresh machine: embedded database, demo data, not production.
    expect(loadConfig({}).adminEmails).toEqual(['moderator@stanford.edu']);
    // Unset elsewhere means no admins at all.
    expect(loadConfig({ NODE_ENV: 'production' }).adminEmails).toEqual([]);
    expect(loadConfig({ SEED_DEMO: 'false' }).adminEmails).toEqual([]);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db:5432/campusloop' }).adminEmails).toEqual([]);
    // An explicit list always wins, in production too.
    expect(loadConfig({ NODE_ENV: 'production', ADMIN_EMAILS: 'dean@stanford.edu' }).adminEmails).toEqual([
      'dean@stanford.edu',
    ]);
    expect(loadConfig({ ADMIN_EMAILS: 'dean@stanford.edu' }).adminEmails).toEqual(['dean@stanford.edu']);
  });
});
