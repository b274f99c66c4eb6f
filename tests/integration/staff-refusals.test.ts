/**
 * What a member's browser meets when Publishing or the editor refuses them, on the built server:
 * a staff page (the desk's bar, its styles allowed by the page's policy) with the refusal's status,
 * what happened, what to do and a link back; a script asking for JSON gets JSON, and the editor's
 * own fetches the line they read. A member who is not an editor, at Publishing, the editor and its
 * Preview; an editor's form sent from another site, or to the Preview's leave; Publishing on a
 * machine that did not publish what is live; and with editing off, Publishing, and any method of
 * the Preview's address, are not there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/server/config';
import { openStore } from '../../src/server/store/index';
import { freePort, startServer, type RunningServer } from '../support/server';
import { sessionCookie, staffPage, startEditingServer } from './editing-server';
import { post } from './staff-sign-in';

const EDITOR = 'erin@agency.example';
const MEMBER = 'otto@agency.example';
const work = mkdtempSync(join(tmpdir(), 'staff-refusals-'));
let server: RunningServer;
let editor: string;
let member: string;

beforeAll(async () => {
  // Its builds never run here.
  ({ server, cookie: editor } = await startEditingServer(join(work, 'main'), {
    build: 'false',
    editor: EDITOR,
    env: { STAFF_EMAILS: MEMBER },
  }));
  member = await sessionCookie(server, MEMBER);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** A browser's visit of `path` with `cookie`: as it opens an address, HTML first. */
const visit = (path: string, cookie: string, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, {
    redirect: 'manual',
    ...init,
    headers: { Accept: 'text/html,*/*;q=0.8', Cookie: cookie, ...init.headers },
  });

/**
 * A browser sent to `path` by a form of another site's, `cookie` with it: a navigation
 * (Sec-Fetch-Mode: navigate, which fetch never sends: it says "cors" whatever it is told).
 */
function navigate(path: string, cookie: string, origin: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const body = '{"additions":[],"deletions":[]}';
    const sent = request(`${server.url}${path}`, {
      method: 'POST',
      headers: {
        Accept: 'text/html,*/*;q=0.8',
        'Sec-Fetch-Mode': 'navigate',
        'Sec-Fetch-Site': origin === server.url ? 'same-origin' : 'cross-site',
        Origin: origin,
        Cookie: cookie,
        'Content-Type': 'text/plain',
        'Content-Length': String(body.length),
      },
    });
    sent.on('error', reject);
    sent.on('response', async (answer) => {
      const chunks: Buffer[] = [];
      for await (const chunk of answer) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(answer.headers))
        for (const one of ([] as string[]).concat(value ?? [])) headers.append(name, one);
      resolve(new Response(Buffer.concat(chunks), { status: answer.statusCode, headers }));
    });
    sent.end(body);
  });
}

/** The refusal's page: its heading, its words, and its one way on. */
async function refusalPage(answer: Response, status: number) {
  expect(answer.status).toBe(status);
  const { page } = await staffPage(answer);
  const main = page.querySelector('main')!;
  const links = [...main.querySelectorAll('a')].map((a) => [a.getAttribute('href'), a.textContent]);
  const words = [...main.querySelectorAll('p')].map((p) => p.textContent!.trim()).join(' ');
  return { heading: page.querySelector('h1')?.textContent, words, links };
}

describe('a member who is not an editor', () => {
  it('is told at Publishing, as a staff page, that publishing is for editors, with the way back to the desk', async () => {
    const page = await refusalPage(await visit('/staff/publish', member), 403);
    expect(page.heading).toBe('Publishing is for the site’s editors');
    expect(page.words).toContain(
      'Only editors may publish. Ask whoever runs the site to add your address to STAFF_EDITORS.',
    );
    expect(page.links).toEqual([['/staff', 'Back to the desk']]);
    // A press of Publish (the page kept open from before) is refused the same way.
    const pressed = await post(
      `${server.url}/staff/publish`,
      { action: 'publish' },
      {
        Cookie: member,
      },
    );
    expect((await refusalPage(pressed, 403)).heading).toBe('Publishing is for the site’s editors');
    // A script that asks for JSON gets JSON.
    const json = await visit('/staff/publish', member, { headers: { Accept: 'application/json' } });
    expect(json.status).toBe(403);
    expect(await json.json()).toEqual({
      error:
        'Only editors may publish. Ask whoever runs the site to add your address to STAFF_EDITORS.',
    });
  });

  it('is told at the editor and at its Preview, as a staff page, that they are for editors', async () => {
    for (const path of [
      '/keystatic',
      '/keystatic/collection/services',
      '/keystatic/preview?page=%2F',
    ]) {
      // Asked by a fetch too, as the Preview's waiting page asks itself again: the page.
      const page = await refusalPage(await visit(path, member), 403);
      expect(page.heading, path).toBe('The editor is for the site’s editors');
      expect(page.words).toContain('Only the site’s editors may use the editor (STAFF_EDITORS).');
      expect(page.words).toContain('add your address to STAFF_EDITORS');
      expect(page.links).toEqual([['/staff', 'Back to the desk']]);
    }
    // The editor's own Save, a fetch, reads the line it always did.
    const save = await fetch(`${server.url}/api/keystatic/update`, {
      method: 'POST',
      headers: { Cookie: member, Origin: server.url, 'Content-Type': 'application/json' },
      body: '{"additions":[],"deletions":[]}',
    });
    expect(save.status).toBe(403);
    expect(save.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await save.text()).toBe('Only the site’s editors may use the editor (STAFF_EDITORS).');
  });
});

describe('an editor', () => {
  it('sent by another site’s form to change the draft, or to leave the Preview by a post, is told that nothing changed, with the way back to the editor', async () => {
    const forged = await navigate('/api/keystatic/update', editor, 'https://evil.example');
    const page = await refusalPage(forged, 403);
    expect(page.heading).toBe('Nothing was changed');
    expect(page.words).toContain('Only the editor’s own pages may change the draft.');
    expect(page.links).toEqual([['/keystatic', 'Back to the editor']]);

    const left = await navigate('/keystatic/preview/leave', editor, server.url);
    expect(left.headers.get('allow')).toBe('GET, HEAD');
    const leave = await refusalPage(left, 405);
    expect(leave.heading).toBe('Nothing was changed');
    expect(leave.links).toEqual([['/keystatic', 'Back to the editor']]);
  });

  it('at Publishing on a machine that did not publish what is live, is told where to publish, as a staff page', async () => {
    // The live release is another machine's: its commit is in no repository of this one's.
    const store = await openStore(readConfig({ ENQUIRY_DB: server.database }));
    try {
      await store.releases.addRelease(
        {
          kind: 'publish',
          commit: 'f'.repeat(40),
          actor: EDITOR,
          actorName: 'Erin',
          summary: 'Published on the other machine',
        },
        Date.now(),
      );
    } finally {
      await store.close();
    }
    const page = await refusalPage(await visit('/staff/publish', editor), 409);
    expect(page.heading).toBe('Publishing is done on another machine');
    expect(page.words).toContain('publishing is done on the machine that published it');
    expect(page.links).toEqual([['/staff', 'Back to the desk']]);
  });
});

describe('with editing off', () => {
  it('says Publishing is off, as a staff page; the Preview’s address is not there for any method', async () => {
    const port = await freePort();
    const plain = await startServer({
      PORT: String(port),
      SITE_URL: `http://127.0.0.1:${port}`,
      STAFF_SECRET: 'staff-test-secret-0123456789abcdef0123',
      STAFF_EMAILS: MEMBER,
    });
    try {
      const cookie = await sessionCookie(plain, MEMBER);
      const asked = (path: string, init: RequestInit = {}) =>
        fetch(`${plain.url}${path}`, {
          redirect: 'manual',
          ...init,
          headers: { Accept: 'text/html', Cookie: cookie, Origin: plain.url },
        });
      const page = await refusalPage(await asked('/staff/publish'), 404);
      expect(page.heading).toBe('Publishing is off on this site');
      expect(page.words).toContain(
        'Publishing from the browser is off on this site (EDITING is not on).',
      );
      expect(page.links).toEqual([['/staff', 'Back to the desk']]);
      for (const method of ['GET', 'POST'])
        expect((await asked('/keystatic/preview?page=%2F', { method })).status, method).toBe(404);
      // The refusals' own page is nothing to ask for.
      expect((await asked('/staff/refused')).status).toBe(404);
    } finally {
      await plain.stop();
    }
  });
});
