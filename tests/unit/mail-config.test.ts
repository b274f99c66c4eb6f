/**
 * The e-mails' addresses as the server reads them: ENQUIRY_TO one address (it is also the organizer of
 * booked calls), ENQUIRY_FROM one, with a name if wanted; anything else is a setting the server will not
 * start with (tests/integration/listen.test.ts), not an e-mail every mail server then refuses.
 */
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/server/config';

const read = (ENQUIRY_TO: string, ENQUIRY_FROM: string) => {
  const config = readConfig({ ENQUIRY_TO, ENQUIRY_FROM });
  return { to: config.mailTo, from: config.mailFrom, invalid: config.invalid };
};

describe('the e-mail address settings', () => {
  it('take an address, a sender with a name, an internationalised domain and stray spaces', () => {
    expect(read(' sales@example.com ', 'Northgate Digital <website@example.com>')).toEqual({
      to: 'sales@example.com',
      from: 'Northgate Digital <website@example.com>',
      invalid: [],
    });
    expect(read('verkauf@bücher.de', 'website@example.com')).toEqual({
      to: 'verkauf@bücher.de',
      from: 'website@example.com',
      invalid: [],
    });
  });

  it('refuse what the e-mails cannot use (no address, a list, a name in ENQUIRY_TO, a broken line), naming the setting and not the value', () => {
    for (const [to, from] of [
      ['sales@', 'website@'],
      ['sales.example.com', 'Website <website.example.com>'],
      ['Sales <sales@example.com>', 'Website <website@example.com'],
      ['sales@example.com, ops@example.com', 'Web\r\nBcc: x@evil.example <website@example.com>'],
    ]) {
      const settings = read(to!, from!);
      expect(settings.to).toBeUndefined();
      expect(settings.from).toBeUndefined();
      expect(settings.invalid).toEqual([
        'ENQUIRY_TO is not an e-mail address: set it to the one inbox enquiries go to.',
        'ENQUIRY_FROM is not an e-mail address: set it to one address, with a name before it in <> if wanted.',
      ]);
    }
  });

  it('leave e-mail off when unset or empty', () => {
    expect(read('', '')).toEqual({ to: undefined, from: undefined, invalid: [] });
  });
});
