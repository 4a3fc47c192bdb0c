import { describe, expect, it } from 'vitest';
import { itemsFound } from './items-found.ts';

describe('itemsFound', () => {
  it('counts exactly up to the cap, then says there are more', () => {
    expect(itemsFound(0, false)).toBe('0 items found');
    expect(itemsFound(1, false)).toBe('1 item found');
    expect(itemsFound(37, false)).toBe('37 items found');
    expect(itemsFound(1000, false)).toBe('1,000 items found');
    expect(itemsFound(1000, true)).toBe('1,000+ items found');
  });
});

describe('itemsFound in Spanish', () => {
  it('counts in Spanish, one and many', async () => {
    const { activateLocale } = await import('../../lib/i18n.ts');
    await activateLocale('es');
    try {
      expect(itemsFound(1, false)).toBe('1 artículo encontrado');
      expect(itemsFound(1234, false)).toBe('1,234 artículos encontrados');
      expect(itemsFound(1000, true)).toBe('Más de 1,000 artículos encontrados');
    } finally {
      await activateLocale('en');
    }
    expect(itemsFound(1, false)).toBe('1 item found');
  });
});
