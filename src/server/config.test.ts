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
});
