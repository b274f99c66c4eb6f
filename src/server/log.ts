/**
 * The server's one logger. Every line the server writes goes through here: its own (`log.info`,
 * `log.warn`, `log.error`), and, once `routeConsole()` has run (./main.ts), whatever Astro, its
 * adapter or a dependency writes with console.*. Two formats:
 *
 * - readable (the default): the message as it always was, on stdout (info) or stderr (warn, error);
 * - LOG_FORMAT=json: one JSON object a line on stdout, `{ time, level, msg, requestId? }`, for a
 *   log collector (journald, Docker, a hosted one).
 *
 * No secret and no visitor's data reaches either: the code never logs them (feeds by their host
 * only, paths without their query), and this file removes, as a last guard, what would still slip
 * through in a library's message: e-mail addresses, the user:password of a URL and a link's token.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { format } from 'node:util';

export type Level = 'info' | 'warn' | 'error';

/**
 * The request being answered, for its log lines. The built site (dist/server/entry.mjs) holds its
 * own copy of every server module, so the storage lives on `globalThis` under a registered symbol,
 * where both copies find the same one (as ./shutdown.ts does).
 */
const storageKey = Symbol.for('agency-site.request-context');
const requests: AsyncLocalStorage<{ id: string }> = ((
  globalThis as Record<symbol, AsyncLocalStorage<{ id: string }> | undefined>
)[storageKey] ??= new AsyncLocalStorage());

/** Runs `work` as part of request `id`: every line logged meanwhile carries it. */
export const withRequestId = <T>(id: string, work: () => T): T => requests.run({ id }, work);

/** The id of the request being answered, if any. */
export const currentRequestId = (): string | undefined => requests.getStore()?.id;

const EMAIL = /[\w.!#$%&'*+/=?^`{|}~-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi;
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi;
/**
 * A query's keys: a call's or a sign-in's signed link (`token`), a booking's id (`ref`), and their
 * kin. Astro's adapter writes the whole address of a request it could not render, query and all.
 */
const QUERY_SECRET = /([?&](?:token|ref|key|secret|signature|sig|code|password)=)[^&#\s"'<>]+/gi;

/** A line with what must never be logged taken out (see the file's comment), control characters too. */
export function redact(text: string): string {
  return (
    text
      .replace(URL_USERINFO, '$1…@')
      .replace(QUERY_SECRET, '$1…')
      .replace(EMAIL, '[e-mail]')
      // Readable logs go to a terminal or a journal: no escape sequence or stray control of a
      // library's message reaches it (newlines stay: a stack trace is several lines).
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, ' ')
  );
}

const formatKey = Symbol.for('agency-site.log-format');
type Sink = { out: (line: string) => void; err: (line: string) => void };
const state = ((globalThis as Record<symbol, { json: boolean; sink: Sink } | undefined>)[
  formatKey
] ??= {
  json: false,
  sink: {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  },
});

/** Chooses the format (LOG_FORMAT, read by ./config.ts: main.ts calls this) for every copy of this module. */
export function setLogFormat(json: boolean) {
  state.json = json;
}

function write(level: Level, args: unknown[]) {
  const message = redact(format(...args));
  if (state.json) {
    const requestId = currentRequestId();
    state.sink.out(
      JSON.stringify({
        time: new Date().toISOString(),
        level,
        msg: message,
        ...(requestId && { requestId }),
      }),
    );
  } else if (level === 'info') state.sink.out(message);
  else state.sink.err(message);
}

export const log = {
  info: (...args: unknown[]) => write('info', args),
  warn: (...args: unknown[]) => write('warn', args),
  error: (...args: unknown[]) => write('error', args),
};

/**
 * Sends console.* of this process through the logger: Astro's own lines (its adapter's errors)
 * and any library's, and Node's warnings, with the same format and the same guard as the server's.
 */
export function routeConsole() {
  console.log = log.info;
  console.info = log.info;
  console.debug = log.info;
  console.warn = log.warn;
  console.error = log.error;
  // Node's own warnings (a deprecation in a dependency, say), which it writes to stderr itself.
  process.removeAllListeners('warning');
  process.on('warning', (warning) => log.warn(`${warning.name}: ${warning.message}`));
}

let lastReport = 0;
let unreported = 0;

/**
 * Says in the server's log that the store failed (a database that is down): one line, and at most
 * one every 10 s while it keeps failing, since a load balancer asks /healthz every few seconds and
 * the queue of jobs polls every second.
 */
export function reportStoreFailure(error: unknown, now = Date.now()) {
  if (now - lastReport < 10_000) {
    unreported++;
    return;
  }
  const more = unreported ? ` (${unreported} more failures since the last report)` : '';
  log.error(
    `The enquiry store failed: ${error instanceof Error ? error.message : String(error)}${more}`,
  );
  lastReport = now;
  unreported = 0;
}
