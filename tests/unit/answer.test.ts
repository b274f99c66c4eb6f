import { describe, expect, it } from 'vitest';
import { applyOutcome, refused, succeeded } from '../../src/server/http/answer';

const request = (accept: string) =>
  new Request('http://localhost/send-mail.php', { method: 'POST', headers: { Accept: accept } });

const astro = () => ({ response: { status: 200, headers: new Headers() } });

describe('the answer of a form endpoint', () => {
  it('is JSON for the islands’ fetch: the field errors, or the reason, and the nearest free times', async () => {
    const alternatives = [{ start: '2026-12-01T09:30:00Z', end: '2026-12-01T10:00:00Z' }];
    const outcome = refused(request('application/json'), 409, {
      message: 'Taken.',
      errors: { slot: 'Taken.' },
      values: { slot: '' },
      alternatives,
    });
    if (outcome.type !== 'response') throw new Error('expected a response');
    expect(outcome.response.status).toBe(409);
    expect(outcome.response.headers.get('Cache-Control')).toBe('no-store');
    expect(await outcome.response.json()).toEqual({ errors: { slot: 'Taken.' }, alternatives });
    const throttled = refused(request('application/json'), 429, { message: 'Later.' });
    if (throttled.type !== 'response') throw new Error('expected a response');
    expect(await throttled.response.json()).toEqual({ error: 'Later.' });
  });

  it('is a page for a native post, which the page renders with the status and headers given', () => {
    const page = astro();
    const outcome = applyOutcome(
      page,
      refused(request('text/html'), 429, { message: 'Later.' }, { 'Retry-After': '60' }),
    );
    expect(outcome).toMatchObject({ type: 'page', message: 'Later.' });
    expect(page.response.status).toBe(429);
    expect(page.response.headers.get('Retry-After')).toBe('60');
    expect(page.response.headers.get('Cache-Control')).toBe('no-store');
  });

  it('sends a stored native post on with a redirect, and tells a fetch where to go', async () => {
    const answer = { ok: true as const, id: 'a', location: '/thankyou' };
    const page = astro();
    const redirect = applyOutcome(page, succeeded(request('text/html'), answer));
    expect(redirect).toBeInstanceOf(Response);
    expect((redirect as Response).status).toBe(303);
    expect((redirect as Response).headers.get('Location')).toBe('/thankyou');
    expect(page.response.status).toBe(200);
    const fetched = succeeded(request('application/json'), answer);
    if (fetched.type !== 'response') throw new Error('expected a response');
    expect(await fetched.response.json()).toEqual(answer);
  });
});
