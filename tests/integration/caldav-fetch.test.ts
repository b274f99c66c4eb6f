/**
 * The fetch every CalDAV request goes through (src/server/calendars/caldav-fetch.ts), against a
 * server of the test's own on 127.0.0.1 and a DNS of its own: the password only as an Authorization
 * header; a host name that leads to loopback or a private address refused as the connection is
 * made, unless the calendar is configured on loopback; an answer over 1 MB, or too slow, refused;
 * no error naming the address or quoting the password.
 */
import type { lookup } from 'node:dns';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { guardedFetch } from '../../src/server/calendars/caldav-fetch';
import { caldav } from '../../src/server/calendars/caldav';
import { reportCalendar } from '../../src/server/calendars/caldav-read';

const PASSWORD = 'pw-Kx7-secret';
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0))
    await new Promise((resolve) => server.close(resolve).closeAllConnections());
});

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A server on 127.0.0.1 answering with `answer`; the requests it got. */
async function serve(answer: (res: ServerResponse) => void) {
  const seen: Seen[] = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    seen.push({ method: req.method!, path: req.url!, headers: req.headers, body });
    answer(res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, seen };
}

/** A DNS that answers every name with `address`. */
const dnsAnswering = (address: string) =>
  ((_name: string, _options: unknown, callback: Function) =>
    callback(null, [{ address, family: address.includes(':') ? 6 : 4 }])) as typeof lookup;

/** Why the fetch failed, and that the message names none of `secrets`. */
async function refusal(promise: Promise<unknown>, ...secrets: string[]) {
  const error = await promise.then(
    () => new Error('it was not refused'),
    (error: Error) => error,
  );
  for (const secret of [PASSWORD, ...secrets]) expect(error.message).not.toContain(secret);
  return error.message;
}

describe('the CalDAV fetch', () => {
  it('puts an event through tsdav with the password only as an Authorization header', async () => {
    const { port, seen } = await serve((res) => res.writeHead(201, { ETag: '"e1"' }).end());
    const url = new URL(`http://anna:${PASSWORD}@127.0.0.1:${port}/anna/calls/ref-1.ics`);
    const body = 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n';
    const answer = await caldav({ method: 'PUT', url, body, ifAbsent: true, timeoutMs: 2000 });
    expect(answer).toEqual({ status: 201, etag: '"e1"', body: '' });
    expect(seen).toEqual([
      expect.objectContaining({ method: 'PUT', path: '/anna/calls/ref-1.ics', body }),
    ]);
    expect(seen[0]!.headers).toMatchObject({
      authorization: `Basic ${Buffer.from(`anna:${PASSWORD}`).toString('base64')}`,
      'if-none-match': '*',
      'content-type': 'text/calendar; charset=utf-8',
    });
  });

  it('refuses a host name that leads to loopback or a private address, naming neither', async () => {
    const { port, seen } = await serve((res) => res.end('reached'));
    for (const address of ['127.0.0.1', '10.0.0.7', '::ffff:192.168.1.2', '169.254.169.254']) {
      const send = guardedFetch({ timeoutMs: 2000 }, dnsAnswering(address));
      const reason = await refusal(
        send(`http://anna:${PASSWORD}@calendar.example:${port}/anna/calls/`),
        address,
        'calendar.example',
      );
      expect(reason).toBe('its host name leads to an address that is not public');
    }
    expect(seen).toHaveLength(0);
    // Configured on loopback (a calendar on the same machine), it may stay there.
    const local = guardedFetch({ timeoutMs: 2000 }, dnsAnswering('127.0.0.1'));
    expect(await (await local(`http://localhost:${port}/`)).text()).toBe('reached');
  });

  it('refuses a private address written in the calendar address, before connecting', async () => {
    const send = guardedFetch({ timeoutMs: 2000 });
    for (const host of ['10.0.0.7', '[::ffff:a00:7]', '169.254.169.254', '[fe80::1]'])
      expect(await refusal(send(`http://anna:${PASSWORD}@${host}/cal/`))).toBe(
        'it leads to an address that is not public',
      );
  });

  it('refuses an answer over 1 MB, declared or streamed', async () => {
    const big = 'x'.repeat(1024 * 1024 + 1);
    const declared = await serve((res) => res.end(big));
    const streamed = await serve((res) => {
      res.writeHead(200, { 'Content-Type': 'text/calendar' });
      res.write(big.slice(0, 600_000));
      res.end(big.slice(600_000));
    });
    const send = guardedFetch({ timeoutMs: 2000 });
    for (const { port } of [declared, streamed])
      expect(await refusal(send(`http://127.0.0.1:${port}/`), String(port))).toBe(
        'its answer is larger than 1048576 bytes',
      );
  });

  it('gives up on a server that does not answer in time, or cannot be reached, naming neither', async () => {
    const { port } = await serve(() => {});
    const send = guardedFetch({ timeoutMs: 200 });
    expect(await refusal(send(`http://anna:${PASSWORD}@127.0.0.1:${port}/`), String(port))).toBe(
      'no answer within 0.2 s',
    );
    servers[0]!.close();
    servers[0]!.closeAllConnections();
    expect(await refusal(send(`http://anna:${PASSWORD}@127.0.0.1:${port}/`), String(port))).toBe(
      'it could not be reached (ECONNREFUSED)',
    );
  });

  it('reads a calendar through a REPORT, and says only the status of a refusal, not its text', async () => {
    const { port, seen } = await serve((res) =>
      res.writeHead(401, { 'Content-Type': 'application/xml' }).end(`<e>${PASSWORD}</e>`),
    );
    const url = new URL(`http://anna:${PASSWORD}@127.0.0.1:${port}/anna/calls/`);
    const read = reportCalendar(url, { timeoutMs: 2000, maxBytes: 1e6 }, Date.UTC(2027, 0, 10));
    expect(await refusal(read, String(port))).toBe('it answered 401');
    expect(seen[0]).toMatchObject({ method: 'REPORT', headers: { depth: '1' } });
    expect(seen[0]!.body).toContain(
      '<c:time-range start="20270109T000000Z" end="20270414T000000Z"/>',
    );
  });

  it('reads an answer that is no multistatus as a failure, not as an empty calendar', async () => {
    const event = (uid: string) =>
      `<d:response><d:href>/anna/calls/${uid}.ics</d:href><d:propstat><d:prop><c:calendar-data>BEGIN:VCALENDAR&#13;\nBEGIN:VEVENT&#13;\nUID:${uid}&#13;\nDTSTART:20270111T100000Z&#13;\nDTEND:20270111T110000Z&#13;\nEND:VEVENT&#13;\nEND:VCALENDAR&#13;\n</c:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>`;
    const multistatus = (inner: string) =>
      `<?xml version="1.0"?><d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">${inner}</d:multistatus>`;
    const answers = [
      ['text/plain', 'BEGIN:VCALENDAR'],
      ['application/xml', '<!DOCTYPE d [<!ENTITY a "aaaa">]><d>&a;</d>'],
      // Nothing at all, and one cut off after its first event: fewer events is not none.
      ['application/xml', ''],
      ['application/xml', multistatus(event('a') + event('b')).slice(0, -40)],
      // A part refused: its events are not known.
      [
        'application/xml',
        multistatus(
          `${event('a')}<d:response><d:href>/anna/calls/</d:href><d:status>HTTP/1.1 403 Forbidden</d:status></d:response>`,
        ),
      ],
      // An object whose data was not given.
      [
        'application/xml',
        multistatus(
          `${event('a')}<d:response><d:href>/anna/calls/b.ics</d:href><d:propstat><d:prop><c:calendar-data/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat></d:response>`,
        ),
      ],
      // "Billion laughs": entities that would expand to gigabytes. A DOCTYPE is refused outright.
      [
        'application/xml',
        `<?xml version="1.0"?><!DOCTYPE d:multistatus [<!ENTITY a "${'a'.repeat(100)}">${Array.from(
          { length: 8 },
          (_, i) => `<!ENTITY ${'bcdefghi'[i]} "${`&${'abcdefgh'[i]};`.repeat(10)}">`,
        ).join('')}]>${multistatus(event('a'))
          .replace('UID:a', 'UID:&i;')
          .replace(/^<\?xml[^>]*>/, '')}`,
      ],
      // A lone 404 for the collection itself, as some servers answer a query matching nothing.
      [
        'application/xml',
        multistatus(
          '<d:response><d:href>/anna/calls/</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>',
        ),
      ],
      ['application/xml', '<?xml version="1.0"?><d:multistatus xmlns:d="DAV:"/>'],
    ];
    const { port } = await serve((res) => {
      const [type, body] = answers.shift()!;
      res.writeHead(207, { 'Content-Type': type! }).end(body);
    });
    const url = new URL(`http://127.0.0.1:${port}/anna/calls/`);
    const read = () => reportCalendar(url, { timeoutMs: 2000, maxBytes: 1e6 });
    for (let i = 0; i < 7; i++) expect(await refusal(read())).toBe('its answer could not be read');
    // An empty multistatus is a calendar with no events in the days read.
    for (let i = 0; i < 2; i++)
      expect(await read()).toMatchObject({
        status: 'modified',
        body: expect.stringMatching(
          /^BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:caldav-report\r\nEND:VCALENDAR\r\n$/,
        ),
      });
  });

  it('reads a CalDAV answer of 4.5 MB, a busy host’s year, with the main thread free', async () => {
    // 6,500 events as a server writes them: CRs as &#13;, a description with entities, some CDATA.
    const events = 6_500;
    const object = (i: number) => {
      const day = String(1 + (i % 28)).padStart(2, '0');
      const text = [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//server//EN',
        'BEGIN:VEVENT',
        `UID:event-${i}@calendar.example`,
        'DTSTAMP:20261201T000000Z',
        `DTSTART:202701${day}T100000Z`,
        `DTEND:202701${day}T110000Z`,
        `SUMMARY:Meeting ${i} with R&D <team>`,
        `DESCRIPTION:${'Agenda: the quarter’s plans\\, the budget & the hiring. '.repeat(3)}`,
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n');
      const data =
        i % 10 === 0
          ? `<![CDATA[${text}]]>`
          : text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('\r', '&#13;');
      return `<d:response><d:href>/anna/calls/event-${i}.ics</d:href><d:propstat><d:prop><d:getetag>"${i}"</d:getetag><cal:calendar-data>${data}</cal:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>\n`;
    };
    const answer = `<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:" xmlns:cal="urn:ietf:params:xml:ns:caldav">\n${Array.from({ length: events }, (_, i) => object(i)).join('')}</d:multistatus>\n`;
    const bytes = Buffer.from(answer);
    expect(bytes.length).toBeGreaterThan(4.5e6);
    // (Its bytes made beforehand: the server is on this thread too, unlike a calendar's.)
    const { port } = await serve((res) =>
      res.writeHead(207, { 'Content-Type': 'application/xml; charset=utf-8' }).end(bytes),
    );
    const url = new URL(`http://127.0.0.1:${port}/anna/calls/`);
    // The longest the thread was held (what a visitor's request would have waited): the most of
    // its processor time between two ticks of a timer due every 5 ms, and up to the read's end (a
    // read that holds the thread to its end would otherwise go unseen, its timer cleared before it
    // ticks). Its own processor time, not the clock's: on a loaded machine the clock counts the
    // turns other processes took too.
    const used = () => {
      const { user, system } = process.threadCpuUsage();
      return (user + system) / 1000;
    };
    let last = used();
    let longest = 0;
    const tick = () => {
      longest = Math.max(longest, used() - last);
      last = used();
    };
    const ticks = setInterval(tick, 5);
    const read = await reportCalendar(
      url,
      { timeoutMs: 20_000, maxBytes: 8e6 },
      Date.UTC(2027, 0, 1),
    );
    tick();
    clearInterval(ticks);
    process.env.SHOW_LONGEST && console.log('LONGEST', longest);
    const body = (read as { body: string }).body;
    expect(body.match(/^BEGIN:VEVENT\r$/gm)).toHaveLength(events);
    expect(body).toContain('\r\nSUMMARY:Meeting 10 with R&D <team>\r\n');
    expect(body).toContain('\r\nSUMMARY:Meeting 11 with R&D <team>\r\n');
    // tsdav read it on this thread: 0.55 to 0.6 s of it in one go (1.5 to 2.8 s by the clock on a
    // loaded machine), every visitor waiting; now some 25 ms.
    expect(longest).toBeLessThan(150);
  });
});
