/**
 * CalDAV for the tests of the calls written into the hosts' calendars: an in-memory calendar that
 * answers tsdav's requests as a CalDAV server does (ETags, If-Match, If-None-Match: *), for the
 * write job's logic; and a real Radicale (Debian's), started on loopback with a user per host, for the integration.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calDavOver, CalDavError } from '../../src/server/calendars/caldav';

/** A request as the fake calendar server got it from tsdav's fetch. */
export interface FakeRequest {
  method: string;
  /** Its address, as sent: with no user name nor password. */
  url: URL;
  body?: string;
  ifMatch?: string;
  ifAbsent: boolean;
  authorization: string | null;
}

/**
 * An in-memory calendar server behind a fetch: its events by URL (host and path), the requests
 * it got. `send` is the write job's CalDAV over it, tsdav's requests and all.
 */
export function fakeCalDav() {
  const events = new Map<string, { body: string; etag: string }>();
  const requests: FakeRequest[] = [];
  let version = 0;
  let down = false;
  const answer = (status: number, etag: string | null = null, body = '') =>
    new Response(status === 204 ? null : body, { status, headers: etag ? { ETag: etag } : {} });
  const serve = async (input: string | URL | Request, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    const url = new URL(input instanceof Request ? input.url : input);
    const request: FakeRequest = {
      method: init.method ?? 'GET',
      url,
      ...(typeof init.body === 'string' && { body: init.body }),
      ...(headers.has('if-match') && { ifMatch: headers.get('if-match')! }),
      ifAbsent: headers.get('if-none-match') === '*',
      authorization: headers.get('authorization'),
    };
    requests.push(request);
    if (down) throw new CalDavError('it could not be reached (ECONNREFUSED)');
    const key = `${url.host}${url.pathname}`;
    const held = events.get(key);
    if (request.method === 'GET') return held ? answer(200, held.etag, held.body) : answer(404);
    if (request.ifMatch && held?.etag !== request.ifMatch) return answer(held ? 412 : 404);
    if (request.ifAbsent && held) return answer(412);
    if (request.method === 'DELETE') {
      if (!held) return answer(404);
      events.delete(key);
      return answer(204);
    }
    const etag = `"v${++version}"`;
    events.set(key, { body: request.body!, etag });
    return answer(held ? 204 : 201, etag);
  };
  return {
    send: calDavOver(() => serve),
    events,
    requests,
    /** The writes (PUT, DELETE) it was sent. */
    writes: () => requests.filter((r) => r.method !== 'GET'),
    setDown(value: boolean) {
      down = value;
    },
    /** The host edits an event in their calendar app: a new version, with a new ETag. */
    edit(url: string, change: (body: string) => string) {
      const held = events.get(url)!;
      events.set(url, { body: change(held.body), etag: `"v${++version}"` });
    },
  };
}

/** The text of an event, unfolded, by property: `DESCRIPTION` → its value. */
export function propertiesOf(ics: string): Map<string, string> {
  const lines = ics.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);
  const inEvent = lines.slice(lines.indexOf('BEGIN:VEVENT'));
  return new Map(
    inEvent.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).split(';')[0]!, line.slice(colon + 1)];
    }),
  );
}

export const hasRadicale = () => spawnSync('radicale', ['--version']).status === 0;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Radicale on 127.0.0.1 with a user per host (`user:password`), its storage in a temporary
 * folder; stop() and start() again on the same port and folder (the server down, then back).
 */
export async function startRadicale(users: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'radicale-'));
  const port = await freePort();
  writeFileSync(
    join(dir, 'users'),
    Object.entries(users)
      .map(([user, password]) => `${user}:${password}`)
      .join('\n'),
  );
  writeFileSync(
    join(dir, 'config'),
    `[server]\nhosts = 127.0.0.1:${port}\n[auth]\ntype = htpasswd\nhtpasswd_filename = ${join(dir, 'users')}\nhtpasswd_encryption = plain\n[rights]\ntype = owner_only\n[storage]\nfilesystem_folder = ${join(dir, 'store')}\n[logging]\nlevel = warning\n`,
  );
  let child: ChildProcess | undefined;
  const origin = `http://127.0.0.1:${port}`;
  const up = async () => {
    for (let i = 0; i < 100; i++) {
      try {
        await fetch(origin, { method: 'OPTIONS' });
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    throw new Error('Radicale did not start');
  };
  const radicale = {
    origin,
    async start() {
      child = spawn('radicale', ['--config', join(dir, 'config')], { stdio: 'ignore' });
      await up();
    },
    async stop() {
      if (!child) return;
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      child = undefined;
    },
    /** Makes the calendar `name` of `user` (MKCALENDAR); its URL with the user's password. */
    async calendar(user: string, name: string): Promise<string> {
      const auth = `Basic ${Buffer.from(`${user}:${users[user]}`).toString('base64')}`;
      const answer = await fetch(`${origin}/${user}/${name}/`, {
        method: 'MKCALENDAR',
        headers: { Authorization: auth },
      });
      if (answer.status !== 201) throw new Error(`MKCALENDAR answered ${answer.status}`);
      return `http://${user}:${encodeURIComponent(users[user]!)}@127.0.0.1:${port}/${user}/${name}/`;
    },
    /** The events Radicale keeps in a calendar, as it stores them (its files). */
    stored(user: string, name: string): string[] {
      const folder = join(dir, 'store', 'collection-root', user, name);
      return readdirSync(folder)
        .filter((file) => file.endsWith('.ics'))
        .map((file) => readFileSync(join(folder, file), 'utf8'));
    },
    /** The whole calendar, as a CalDAV GET of the collection answers (what a feed reads). */
    async feed(user: string, name: string): Promise<string> {
      const auth = `Basic ${Buffer.from(`${user}:${users[user]}`).toString('base64')}`;
      return (
        await fetch(`${origin}/${user}/${name}/`, { headers: { Authorization: auth } })
      ).text();
    },
    async cleanup() {
      await radicale.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await radicale.start();
  return radicale;
}
