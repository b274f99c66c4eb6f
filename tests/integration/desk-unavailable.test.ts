/**
 * The desk while its store cannot be reached (a PostgreSQL address, with a password, where nothing
 * answers), on the built server: a staff page with 503 and Retry-After that says the enquiries
 * cannot be read, what is safe, what to do, and "Try again"; JSON to a script. The desk's posts
 * and the CSV's button get the same page, never a file. Signing in (its page, its posts, a passkey's
 * steps) says it is not possible right now; signing out still forgets this browser's session.
 * Neither the page nor the log shows the store's address or password.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startServer, type RunningServer } from '../support/server';
import { staffPage } from './editing-server';
import { post } from './staff-sign-in';

const PASSWORD = 'Hunter2-s3cret-desk';
const USER = 'sales_admin';
const DATABASE = 'agency_private';
let server: RunningServer;
let storePort: number;

/** The server, its store a PostgreSQL address where nothing answers, with `env`. */
async function startOutOfReach(env: Record<string, string> = {}) {
  return startServer({
    DATABASE_URL: `postgres://${USER}:${PASSWORD}@localhost:${storePort}/${DATABASE}`,
    STAFF_SECRET: 'staff-test-secret-0123456789abcdef0123',
    BOOKING_SECRET: 'booking-test-secret-0123456789abcdef01',
    ...env,
  });
}

beforeAll(async () => {
  // A port nothing listens on: every connection to the store is refused.
  storePort = await freePort();
  server = await startOutOfReach();
}, 60_000);

afterAll(() => server?.stop());

/** A member's browser: HTML first, with the session cookie it had. */
const browser = { Accept: 'text/html,*/*;q=0.8', Cookie: `staff=${'a'.repeat(43)}` };

/** The page: its heading, its words, its links, and that it names nothing of the store. */
async function unavailablePage(answer: Response) {
  expect(answer.status).toBe(503);
  expect(answer.headers.get('retry-after')).toBe('30');
  expect(answer.headers.get('content-disposition')).toBeNull();
  const { html, page } = await staffPage(answer);
  for (const secret of [PASSWORD, USER, DATABASE, String(storePort), 'postgres', 'ECONNREFUSED'])
    expect(html).not.toContain(secret);
  // Who is signed in is in the store too: nobody is named, nor offered Sign out.
  expect(page.querySelector('.staff__sign-out')).toBeNull();
  const main = page.querySelector('main')!;
  return {
    heading: page.querySelector('h1')?.textContent,
    words: [...main.querySelectorAll('p')].map((p) => p.textContent!.trim()).join(' '),
    links: [...main.querySelectorAll('a')].map((a) => [a.getAttribute('href'), a.textContent]),
  };
}

describe('the desk with its store out of reach', () => {
  it('shows a staff page that says the enquiries cannot be read, what is safe, what to do, and Try again', async () => {
    const page = await unavailablePage(
      await fetch(`${server.url}/staff?list=enquiries&q=acme`, { headers: browser }),
    );
    expect(page.heading).toBe('The desk cannot be opened right now');
    expect(page.words).toContain(
      'The enquiries cannot be read right now: the site cannot reach the store that keeps them.',
    );
    expect(page.words).toContain('Nothing prospects sent is lost');
    expect(page.words).toContain('their browser keeps it and sends it again by itself');
    expect(page.words).toContain(
      'Try again in a minute. If this lasts, tell whoever runs the site.',
    );
    expect(page.words).not.toContain('Nothing was done');
    // The same list again.
    expect(page.links).toEqual([['/staff?list=enquiries&q=acme', 'Try again']]);
    // Publishing stands on the desk's store too.
    const publishing = await unavailablePage(
      await fetch(`${server.url}/staff/publish`, { headers: browser }),
    );
    expect(publishing.links).toEqual([['/staff/publish', 'Try again']]);
  });

  it('says a member’s post did nothing, and offers the page again', async () => {
    const page = await unavailablePage(
      await post(`${server.url}/staff`, { action: 'mark-handled', enquiry: 'x' }, browser),
    );
    expect(page.heading).toBe('The desk cannot be opened right now');
    expect(page.words).toContain('Nothing was done. The enquiries cannot be read right now');
    expect(page.links).toEqual([['/staff', 'Try again']]);
  });

  it('answers the CSV’s button with the page, which a browser shows rather than saves, leading back to the desk', async () => {
    const page = await unavailablePage(
      await post(`${server.url}/staff/enquiries.csv`, {}, browser),
    );
    expect(page.words).toContain('The enquiries cannot be read right now');
    expect(page.links).toEqual([['/staff', 'Try again']]);
  });

  it('tells a script asking for JSON, with the same status', async () => {
    const json = { ...browser, Accept: 'application/json' };
    for (const answer of [
      await fetch(`${server.url}/staff`, { headers: json }),
      await post(`${server.url}/staff/enquiries.csv`, {}, json),
    ]) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('30');
      expect(await answer.json()).toEqual({
        error:
          'The desk cannot be opened right now: the enquiries cannot be read. Try again in a minute.',
      });
    }
  });

  it('answers signing in with the staff’s words: the page, a post to it, and a passkey’s step', async () => {
    // Under the heading, not said again.
    const why = 'The site cannot reach its store, which keeps the staff’s sign-ins.';
    // The page itself, with an e-mailed link's token: Try again opens the same link.
    const opened = await unavailablePage(
      await fetch(`${server.url}/staff/sign-in?token=abc`, { headers: browser }),
    );
    expect(opened.heading).toBe('Signing in is not possible right now');
    expect(opened.words.startsWith(why)).toBe(true);
    expect(opened.words).toContain(
      'Try again in a minute. If this lasts, tell whoever runs the site.',
    );
    expect(opened.words).not.toContain('Enquiries');
    expect(opened.links).toEqual([['/staff/sign-in?token=abc', 'Try again']]);
    for (const fields of [{ email: 'anna@example.com' }, { token: 'abc' }] as Record<
      string,
      string
    >[]) {
      const page = await unavailablePage(
        await post(`${server.url}/staff/sign-in`, fields, browser),
      );
      expect(page.heading).toBe('Signing in is not possible right now');
      expect(page.words).toContain(`Nothing was done. ${why}`);
      expect(page.words).not.toContain('Enquiries');
      expect(page.links).toEqual([['/staff/sign-in', 'Back to the sign-in page']]);
    }
    const step = await fetch(`${server.url}/staff/passkey`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        Origin: server.url,
      },
      body: JSON.stringify({ step: 'sign-in-options' }),
    });
    expect(step.status).toBe(503);
    expect(step.headers.get('retry-after')).toBe('30');
    expect(await step.json()).toEqual({
      error: `Signing in is not possible right now. ${why} Try again in a minute. If this lasts, tell whoever runs the site.`,
    });
  });

  it('signs a member out on this browser: its cookie cleared, then the sign-in page that says why', async () => {
    const out = await post(`${server.url}/staff/sign-out`, {}, browser);
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/staff/sign-in');
    expect(out.headers.get('set-cookie')).toMatch(/^staff=; Max-Age=0;/);
    // From another site, nothing: the gate still checks where a post comes from.
    const forged = await post(
      `${server.url}/staff/sign-out`,
      {},
      {
        ...browser,
        Origin: 'https://elsewhere.example',
      },
    );
    expect(forged.status).toBe(403);
    expect(forged.headers.get('set-cookie')).toBeNull();
  });

  it('logs that the store failed, never its password', () => {
    expect(server.output()).toContain('The enquiry store failed');
    expect(server.output()).not.toContain(PASSWORD);
  });
});

describe('the live site’s editor with its store out of reach', () => {
  let editing: RunningServer;
  let folder: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'editor-unavailable-'));
    editing = await startOutOfReach({ EDITING: 'on', EDITING_DIR: folder });
  }, 60_000);

  afterAll(async () => {
    await editing?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('shows a member’s browser the staff page that says so, Try again opening the same place', async () => {
    for (const asked of ['/keystatic', '/keystatic/branch/main/collection/services']) {
      const page = await unavailablePage(
        await fetch(`${editing.url}${asked}`, { headers: browser }),
      );
      expect(page.heading).toBe('The editor cannot be opened right now');
      expect(page.words).toContain(
        'The site cannot reach its store, which keeps who is signed in: it cannot tell that you may use the editor.',
      );
      expect(page.words).toContain('Nothing saved in the editor is lost');
      expect(page.words).toContain(
        'Try again in a minute. If this lasts, tell whoever runs the site.',
      );
      expect(page.links).toEqual([[asked, 'Try again']]);
    }
  });

  it('tells the editor’s own fetches their line, as text or JSON', async () => {
    const save = (accept: string) =>
      fetch(`${editing.url}/api/keystatic/update`, {
        method: 'POST',
        headers: { ...browser, Accept: accept, 'Content-Type': 'application/json' },
        body: '{}',
      });
    const line = 'The editor is unavailable just now: try again in a minute.';
    const text = await save('*/*');
    expect(text.status).toBe(503);
    expect(text.headers.get('retry-after')).toBe('30');
    expect(await text.text()).toBe(line);
    const json = await save('application/json');
    expect(json.status).toBe(503);
    expect(await json.json()).toEqual({ error: line });
  });
});
