import { describe, expect, it } from 'vitest';
import { submissionOutcome } from '../../src/islands/forms/submission';

describe('what a form does with the answer to its post', () => {
  it('goes where the server says once the post is stored', () => {
    expect(
      submissionOutcome(200, { ok: true, id: 'a', location: '/schedule/booked?ref=a' }),
    ).toEqual({ type: 'sent', location: '/schedule/booked?ref=a' });
  });

  it('goes to the thank-you page when the answer names no path of this site', () => {
    for (const body of [
      { ok: true, id: 'a' },
      { ok: true, id: 'a', location: 'https://elsewhere.example/' },
      { ok: true, id: 'a', location: '//elsewhere.example/' },
      // What a browser makes of a link: a backslash is a slash, a tab or a line break is dropped.
      { ok: true, id: 'a', location: '/\\elsewhere.example/' },
      { ok: true, id: 'a', location: '/\t/elsewhere.example/' },
      { ok: true, id: 'a', location: '/\n/elsewhere.example/' },
      { ok: true, id: 'a', location: 42 },
      {},
      null,
      'not json',
    ]) {
      expect(submissionOutcome(200, body)).toEqual({ type: 'sent', location: '/thankyou' });
    }
  });

  it('shows the field errors of a refusal, with the nearest free times of a time just taken', () => {
    const alternatives = [{ start: '2026-12-01T09:30:00Z', end: '2026-12-01T10:00:00Z' }];
    expect(submissionOutcome(422, { errors: { email: 'Valid email is required.' } })).toEqual({
      type: 'refused',
      answer: { errors: { email: 'Valid email is required.' } },
    });
    expect(
      submissionOutcome(409, { error: 'Taken.', errors: { slot: 'Taken.' }, alternatives }),
    ).toEqual({
      type: 'refused',
      answer: { error: 'Taken.', errors: { slot: 'Taken.' }, alternatives },
    });
  });

  it('keeps a post the server could not take just now (503) for the device to send again', () => {
    expect(submissionOutcome(503, { error: 'Enquiries cannot be taken right now.' })).toEqual({
      type: 'busy',
      message: 'Enquiries cannot be taken right now.',
    });
    expect(submissionOutcome(503, {})).toEqual({
      type: 'busy',
      message: '',
    });
  });

  it('keeps a post a proxy answered 502 or 504 (the server restarting), not the site', () => {
    // Caddy's empty answer, a proxy's HTML page (no JSON: {}), or JSON of the proxy's own.
    for (const status of [502, 504])
      for (const body of [undefined, {}, '<html>Bad Gateway</html>', { message: 'upstream' }])
        expect(submissionOutcome(status, body)).toEqual({
          type: 'busy',
          message: '',
        });
  });

  it('does not keep the site’s own answer, whatever its status, nor other 5xx', () => {
    expect(submissionOutcome(502, { error: 'Refused.' })).toEqual({
      type: 'failed',
      message: 'Refused.',
    });
    expect(submissionOutcome(504, { ok: false })).toEqual({
      type: 'failed',
      message: '',
    });
    for (const status of [500, 501, 505])
      expect(submissionOutcome(status, {})).toEqual({
        type: 'failed',
        message: '',
      });
  });

  it('fails with the server’s reason, or none (the page says what to do), on anything else', () => {
    expect(submissionOutcome(429, { error: 'Please try again in 1 minute.' })).toEqual({
      type: 'failed',
      message: 'Please try again in 1 minute.',
    });
    // A 422 without field errors is a refusal the form cannot show by its fields.
    expect(submissionOutcome(422, { error: 'Refused.' })).toEqual({
      type: 'failed',
      message: 'Refused.',
    });
    expect(submissionOutcome(500, undefined)).toEqual({
      type: 'failed',
      message: '',
    });
    expect(submissionOutcome(403, { errors: { email: 'Enter an e-mail address.' } })).toEqual({
      type: 'failed',
      message: 'Enter an e-mail address.',
    });
  });
});
