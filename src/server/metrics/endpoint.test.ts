import { describe, expect, it } from 'vitest';
import { routeLabel } from './endpoint.ts';

describe('routeLabel', () => {
  it('keeps the patterns of API, socket, metrics and uploads routes', () => {
    for (const pattern of [
      '/api/items/:id',
      '/api/admin/payment-steps/:id/retry',
      '/ws',
      '/metrics',
      '/uploads/*',
    ])
      expect(routeLabel(pattern)).toBe(pattern);
  });

  it("puts the web app's built files under one label, and requests no route matched under another", () => {
    expect(routeLabel('/assets/index-3fa9c1.js')).toBe('(static)');
    expect(routeLabel('/assets/index-3fa9c1.js.br')).toBe('(static)');
    expect(routeLabel('/favicon.svg')).toBe('(static)');
    expect(routeLabel(undefined)).toBe('(unmatched)');
  });
});
