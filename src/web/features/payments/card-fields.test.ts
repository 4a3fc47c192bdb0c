import { describe, expect, it } from 'vitest';
import { formatExpiry, groupDigits, parseExpiry } from './card-fields.ts';

describe('the card form’s fields', () => {
  it('groups a card number in fours', () => {
    expect(groupDigits('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(groupDigits('4242-4242')).toBe('4242 4242');
  });

  it('takes a one-digit month, typed with its slash or pasted', () => {
    expect(formatExpiry('7/29')).toBe('07 / 29');
    expect(formatExpiry('7/')).toBe('07');
    expect(formatExpiry('7')).toBe('07');
    expect(parseExpiry(formatExpiry('7/29'))).toEqual({ expMonth: 7, expYear: 2029 });
  });

  it('keeps two-digit months, and each keystroke of a formatted value as typed', () => {
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('12')).toBe('12');
    expect(formatExpiry('123')).toBe('12 / 3');
    expect(formatExpiry('1230')).toBe('12 / 30');
    // Typing on after the padded month, and deleting back.
    expect(formatExpiry('07 / 2')).toBe('07 / 2');
    expect(formatExpiry('07 / 29')).toBe('07 / 29');
    expect(formatExpiry('07 /')).toBe('07');
    expect(formatExpiry('0')).toBe('0');
    expect(formatExpiry('01/29')).toBe('01 / 29');
  });

  it('reads what the form shows, and nothing else', () => {
    expect(parseExpiry('12 / 30')).toEqual({ expMonth: 12, expYear: 2030 });
    expect(parseExpiry('7/2031')).toEqual({ expMonth: 7, expYear: 2031 });
    expect(parseExpiry('12 30 1')).toBeNull();
    expect(parseExpiry('')).toBeNull();
  });
});
