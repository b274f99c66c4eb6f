import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  callRequestEmailNonAsciiMessage,
  callRequestMessages,
  validateCallRequest,
} from '../../src/domain/call-form';
import { enquiryMessages } from '../../src/domain/enquiry-form';
import { asciiEmail, emailProblem, hasErrors, isValidEmail } from '../../src/domain/forms';
import { anyCodePoint } from '../support/hostile-text';

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

  // What the mail path cannot send: a part before the @ that is not an ASCII dot-atom, a domain
  // that is not a host name.
  it.each([
    'josé@example.com',
    'a,b@example.com',
    '"x"@example.com',
    '<a@b.co>',
    'Ada <a@b.co>',
    'a@b.co, c@d.co',
    '.a@b.co',
    'a.@b.co',
    'a..b@b.co',
    `${'a'.repeat(65)}@b.co`,
    'a@1.2.3.4',
    'a@[1.2.3.4]',
    'a@b.co:25',
    'a@b.co/x',
    'a@-b.co',
    'a@b-.co',
    'a@b_c.co',
    'a@b.co\r\nBcc: c@d.co',
    'a@b.co\u0000',
  ])('refuses %j, which could not be mailed', (email) => {
    expect(isValidEmail(email)).toBe(false);
    expect(asciiEmail(email)).toBeUndefined();
  });

  it.each([
    ['user@bücher.de', 'user@xn--bcher-kva.de'],
    ['User@Bücher.DE', 'User@xn--bcher-kva.de'],
    ["o'neil+tag@Example.co.uk", "o'neil+tag@example.co.uk"],
    ['a@例え.テスト', 'a@xn--r8jz45g.xn--zckzah'],
  ])('accepts %j, mailed as %j', (email, ascii) => {
    expect(isValidEmail(email)).toBe(true);
    expect(asciiEmail(email)).toBe(ascii);
  });

  it('says plainly why an address with accents before the @ is refused', () => {
    expect(emailProblem('josé@example.com')).toBe('non-ascii-local-part');
    expect(emailProblem('a,b@example.com')).toBe('format');
    expect(emailProblem('josé@example')).toBe('format');
    const call = validateCallRequest({ name: 'Ada', email: 'josé@example.com', message: 'Hi' });
    expect(call.email).toBe(callRequestEmailNonAsciiMessage);
    expect(call.email).toMatch(/^Enter the part before the @ without accents/);
    expect(validateCallRequest({ name: 'Ada', email: 'a,b@example.com', message: 'Hi' })).toEqual({
      email: 'Valid email is required.',
    });
  });

  it('gives the mail path, for any address it accepts, an ASCII address of at most 254 characters', () => {
    const address = fc.oneof(
      fc.string({ unit: anyCodePoint, maxLength: 40 }),
      fc
        .tuple(
          fc.string({ maxLength: 20 }),
          fc.constantFrom('@', '@@', ''),
          fc.string({ unit: anyCodePoint, maxLength: 20 }),
          fc.constantFrom('.de', '.com', '', '.1', '.'),
        )
        .map((parts) => parts.join('')),
      fc.emailAddress(),
    );
    fc.assert(
      fc.property(address, (email) => {
        const ascii = asciiEmail(email);
        expect(ascii !== undefined).toBe(isValidEmail(email));
        if (ascii === undefined) return;
        expect(ascii.length).toBeLessThanOrEqual(254);
        expect(ascii).toMatch(
          /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@([a-z0-9-]+\.)+[a-z][a-z0-9-]*$/,
        );
        expect(asciiEmail(ascii)).toBe(ascii);
      }),
      { numRuns: 300 },
    );
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

import { isValidPhone, parseServices, validateEnquiry } from '../../src/domain/enquiry-form';

const options = [
  'Mobile Development',
  'Web Development',
  'Hire Development',
  'Maintenance & Support',
  'Technical Consultancy',
  'Other Services',
];

const valid = {
  first_name: 'Grace',
  last_name: 'Hopper',
  email: 'grace@example.com',
  contact: '+44 20 7946 0958',
  service: ['Web Development'],
  project: '',
};

describe('the enquiry form', () => {
  it('accepts a valid enquiry, trimmed', () => {
    const { enquiry, errors } = validateEnquiry({ ...valid, first_name: '  Grace ' }, options);
    expect(errors).toEqual({});
    expect(enquiry.first_name).toBe('Grace');
  });

  it('requires names of at most 100 characters', () => {
    expect(
      Object.keys(
        validateEnquiry({ ...valid, first_name: ' ', last_name: 'x'.repeat(101) }, options).errors,
      ),
    ).toEqual(['first_name', 'last_name']);
  });

  it.each(['+44 20 7946 0958', '02079460958', '1234567', '+123456789012345'])(
    'accepts the phone number %j',
    (phone) => {
      expect(isValidPhone(phone)).toBe(true);
    },
  );

  it.each(['123456', '+1234567890123456', '020-7946-0958', '44+20', 'call me', '', '+ '])(
    'rejects the phone number %j',
    (phone) => {
      expect(isValidPhone(phone)).toBe(false);
    },
  );

  it('reads services from one comma-separated value, repeated fields, or both, without repeats', () => {
    expect(
      parseServices(
        ['Web Development,Hire Development', 'Web Development', ' Other Services '],
        options,
      ),
    ).toEqual({
      chosen: ['Web Development', 'Hire Development', 'Other Services'],
      unknown: false,
    });
    expect(parseServices(['Maintenance & Support'], options).chosen).toEqual([
      'Maintenance & Support',
    ]);
  });

  it('needs only the names and a valid e-mail: the phone and the services are optional', () => {
    const { errors, enquiry } = validateEnquiry(
      { ...valid, contact: '  ', service: [], project: '' },
      options,
    );
    expect(errors).toEqual({});
    expect(enquiry.contact).toBe('');
    expect(enquiry.service).toEqual([]);
    expect(
      validateEnquiry(
        { first_name: '', last_name: '', email: '', contact: '', service: [], project: '' },
        options,
      ).errors,
    ).toEqual({
      first_name: 'Enter your first name',
      last_name: 'Enter your last name',
      email: 'Enter an email address in the correct format, like name@example.com',
    });
  });

  it('says plainly why an address with accents before the @ is refused', () => {
    expect(validateEnquiry({ ...valid, email: 'zoë@example.com' }, options).errors.email).toBe(
      enquiryMessages.email_non_ascii,
    );
    expect(validateEnquiry({ ...valid, email: 'zoe@@example.com' }, options).errors.email).toBe(
      enquiryMessages.email,
    );
    expect(validateEnquiry({ ...valid, email: 'zoe@bücher.de' }, options).errors).toEqual({});
  });

  it('checks a phone number and services only when given', () => {
    expect(validateEnquiry({ ...valid, contact: '12 34' }, options).errors.contact).toBe(
      'Enter a phone number of 7 to 15 digits, like +44 20 7946 0958',
    );
    expect(
      validateEnquiry({ ...valid, service: ['Web Development', 'Free lunch'] }, options).errors
        .service,
    ).toBe('Select services from the list');
  });

  it('handles 10,000 services in linear time', () => {
    const { enquiry, errors } = validateEnquiry(
      { ...valid, service: Array(10_000).fill('Web Development') },
      options,
    );
    expect(errors).toEqual({});
    expect(enquiry.service).toEqual(['Web Development']);
    // Ten times the services, at most some ten times the time (a quadratic check would take a
    // hundred: seconds), with room for a pause of the garbage collector; a ratio holds on a busy
    // machine, where a fixed number of milliseconds does not. The quickest of seven runs: a busy
    // machine only ever adds time (the middle of three read 118 ms for 20,000 beside a fresh `npm
    // test` on a slower machine, 2026-11-30, some 3 ms alone).
    const timed = (count: number) =>
      Math.min(
        ...Array.from({ length: 7 }, () => {
          const started = performance.now();
          validateEnquiry({ ...valid, service: Array(count).fill('Web Development') }, options);
          return performance.now() - started;
        }),
      );
    timed(2_000);
    expect(timed(20_000)).toBeLessThan(40 * timed(2_000) + 50);
  });

  it('limits the project to 5,000 characters and keeps markup as text', () => {
    expect(
      validateEnquiry({ ...valid, project: 'x'.repeat(5001) }, options).errors.project,
    ).toBeDefined();
    const { enquiry } = validateEnquiry(
      { ...valid, project: '<script>alert(1)</script>' },
      options,
    );
    expect(enquiry.project).toBe('<script>alert(1)</script>');
  });
});
