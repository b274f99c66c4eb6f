/**
 * The server's logger (src/server/log.ts): readable lines by default, one JSON object a line with
 * LOG_FORMAT=json (the request's id inside a request), and what must never be logged taken out of
 * either, whatever a library puts in its message.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { log, redact, setLogFormat, withRequestId } from '../../src/server/log';

type Sink = { out: (line: string) => void; err: (line: string) => void };
const state = (globalThis as Record<symbol, { json: boolean; sink: Sink }>)[
  Symbol.for('agency-site.log-format')
]!;
let saved: { json: boolean; sink: Sink };
let written: { to: 'out' | 'err'; line: string }[];
beforeEach(() => {
  saved = { ...state };
  written = [];
  state.sink = {
    out: (line) => written.push({ to: 'out', line }),
    err: (line) => written.push({ to: 'err', line }),
  };
});
afterEach(() => Object.assign(state, saved));

it('writes readable lines by default: info to stdout, warnings and errors to stderr', () => {
  setLogFormat(false);
  log.info('Serving the site at http://localhost:4321');
  log.warn('SITE_URL is not set');
  expect(written).toEqual([
    { to: 'out', line: 'Serving the site at http://localhost:4321' },
    { to: 'err', line: 'SITE_URL is not set' },
  ]);
});

it('writes one JSON object a line with LOG_FORMAT=json, the request id inside a request', async () => {
  setLogFormat(true);
  log.info('outside');
  await withRequestId('req-1234', async () => {
    await Promise.resolve();
    log.error('inside,\nover two lines', new Error('and an error'));
  });
  const [outside, inside] = written.map(({ line }) => JSON.parse(line));
  expect(written.every(({ to, line }) => to === 'out' && !line.includes('\n'))).toBe(true);
  expect(outside).toEqual({ time: expect.any(String), level: 'info', msg: 'outside' });
  expect(inside).toMatchObject({ level: 'error', requestId: 'req-1234' });
  expect(inside.msg).toMatch(/^inside,\nover two lines Error: and an error/);
});

it("takes out e-mail addresses, a URL's user and password, a link's token, and control characters", () => {
  expect(
    redact(
      'Job 7 failed: 550 <ada.visitor+x@example.co.uk> refused by smtps://website:s3cr%40t@mail.example.com:465 \u001b[31m',
    ),
  ).toBe('Job 7 failed: 550 <[e-mail]> refused by smtps://…@mail.example.com:465  [31m');
  expect(redact('postgres://agency:pw@db.internal:5432/agency')).toBe(
    'postgres://…@db.internal:5432/agency',
  );
  expect(redact('line one\nline two')).toBe('line one\nline two');
  // Astro's adapter names a request it could not render by its whole address, query and all.
  expect(
    redact(
      'Could not render http://127.0.0.1:4321/schedule/change?lang=en&token=0f1e.3.1790000000000.c2ln&x=1\nError: boom',
    ),
  ).toBe('Could not render http://127.0.0.1:4321/schedule/change?lang=en&token=…&x=1\nError: boom');
  expect(redact('/schedule/booked?ref=6f1c2a9e-0000-4000-8000-00000000abcd')).toBe(
    '/schedule/booked?ref=…',
  );
});
