import { describe, expect, it } from 'vitest';
import {
  callRequestMessages,
  hasErrors,
  isValidEmail,
  validateCallRequest,
} from '../../src/server/validation';

describe('e-mail addresses', () => {
  it.each(['a@b.co', 'first.last+tag@example.co.uk', 'x@sub.domain.example'])(
    'accepts %s',
    (email) => {
      expect(isValidEmail(email)).toBe(true);
    },
  );
  it.each([
    '',
    'plain',
    'a@b',
    'a@.com',
    'a b@c.com',
    'a@b..com',
    '@b.com',
    'a@b.com.',
    `${'a'.repeat(250)}@b.com`,
  ])('rejects %j', (email) => {
    expect(isValidEmail(email)).toBe(false);
  });
});

describe('the Schedule a Call form', () => {
  it('gives the three messages of the spec for an empty form', () => {
    expect(validateCallRequest({ name: '', email: '', message: '' })).toEqual({
      name: 'Name is required.',
      email: 'Valid email is required.',
      message: 'Please,leave us a message.',
    });
  });

  it('treats white space as empty and an invalid address like a missing one', () => {
    const errors = validateCallRequest({ name: '   ', email: 'not-an-address', message: '\n\t' });
    expect(errors).toEqual(callRequestMessages);
  });

  it('accepts a complete request', () => {
    const errors = validateCallRequest({
      name: 'Ada',
      email: 'ada@example.com',
      message: 'Call me',
    });
    expect(errors).toEqual({});
    expect(hasErrors(errors)).toBe(false);
  });

  it('limits the lengths', () => {
    const errors = validateCallRequest({
      name: 'a'.repeat(101),
      email: 'ada@example.com',
      message: 'm'.repeat(5001),
    });
    expect(Object.keys(errors).sort()).toEqual(['message', 'name']);
  });
});
