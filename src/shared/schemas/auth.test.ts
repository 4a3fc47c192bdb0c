import { describe, expect, it } from 'vitest';
import { isUniversityEmail, loginInput, registerInput } from './auth.ts';

describe('isUniversityEmail (spec §5)', () => {
  it.each([
    ['ada@stanford.edu', true],
    ['ada@cs.stanford.edu', true],
    ['ada@ox.edu.uk', true],
    ['ada@gmail.com', false],
    ['ada@education.com', false],
    ['ada@stanford.edu.evil', true],
  ])('%s → %s', (email, expected) => {
    expect(isUniversityEmail(email)).toBe(expected);
  });
});

describe('registerInput', () => {
  it('trims and lower-cases the e-mail', () => {
    const parsed = registerInput.parse({
      fullName: ' Ada ',
      username: 'ada',
      email: ' Ada@Stanford.EDU ',
      campus: 'stanford.edu',
      password: 'secret1',
    });
    expect(parsed.email).toBe('ada@stanford.edu');
    expect(parsed.fullName).toBe('Ada');
  });

  it('keeps the spec message for each rule', () => {
    const result = registerInput.safeParse({
      fullName: '',
      username: '',
      email: 'x@gmail.com',
      campus: '',
      password: '1',
    });
    expect(result.success).toBe(false);
    const messages = result.error!.issues.map((i) => i.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'Full name is required',
        'Username is required',
        'Must be a valid university email address',
        'Campus is required',
        'Password must be at least 6 characters',
      ]),
    );
  });

  it('refuses an oversized password rather than hashing it', () => {
    const result = loginInput.safeParse({ email: 'a@stanford.edu', password: 'x'.repeat(201) });
    expect(result.success).toBe(false);
  });
});
