/**
 * A calendar-query's answer (RFC 4791 §7.8, a WebDAV multistatus) made one iCalendar text, in a
 * feed worker (./worker.ts): a year of a busy host's events is some megabytes of XML, which held
 * the server's main thread for seconds when tsdav read it there. Elements are known by their local
 * names, whatever their prefix, as tsdav knew them. sax reads it strictly and expands no entity but
 * XML's own; a DOCTYPE, which could declare more ("billion laughs"), is refused outright.
 */
import sax from 'sax';

/** An answer that is not a whole multistatus, or that says a part of the calendar was not given. */
export class UnreadableAnswer extends Error {
  constructor() {
    super('its answer could not be read');
  }
}

/** Whether a status line ("HTTP/1.1 200 OK") says 2xx, or what code it says. */
const codeOf = (line: string) => /^\S+\s+(\d{3})(?:\s|$)/.exec(line.trim())?.[1];

interface Response {
  href: string;
  status: string | undefined;
  propstats: number;
  error: boolean;
}

/**
 * Each calendar object's text (text or CDATA, entities decoded), in the answer's order; throws
 * UnreadableAnswer. An empty or cut-off answer, or one refusing a part (a response or a propstat
 * not 2xx, a response with neither), reads as fewer events, not as none: it is refused. tsdav's one
 * leniency is kept: a lone 404 for the collection itself (`collection`, its path) is no events.
 */
export function calendarObjects(xml: string, collection: string): string[] {
  const parser = sax.parser(true, { position: false });
  const path: string[] = [];
  const objects: string[] = [];
  let text = '';
  let response: Response | undefined;
  let propstat: { status: string | undefined; data: string | undefined } | undefined;
  let responses = 0;
  let notFound = false;
  let closed = false;
  const at = (...names: string[]) =>
    path.length === names.length && names.every((name, i) => path[i] === name);
  const refuse = () => {
    throw new UnreadableAnswer();
  };
  // sax's messages quote the answer: not for the log.
  parser.onerror = refuse;
  parser.ondoctype = refuse;
  parser.onopentag = ({ name }) => {
    const local = name.replace(/^.*:/, '');
    if (path.length === 0 && (local !== 'multistatus' || closed)) refuse();
    path.push(local);
    text = '';
    if (at('multistatus', 'response'))
      response = { href: '', status: undefined, propstats: 0, error: false };
    else if (at('multistatus', 'response', 'propstat')) {
      propstat = { status: undefined, data: undefined };
      response!.propstats += 1;
    } else if (at('multistatus', 'response', 'error')) response!.error = true;
  };
  parser.ontext = parser.oncdata = (chunk) => {
    text += chunk;
  };
  parser.onclosetag = () => {
    if (at('multistatus', 'response', 'href')) response!.href = text.trim();
    else if (at('multistatus', 'response', 'status')) response!.status = text;
    else if (at('multistatus', 'response', 'propstat', 'status')) propstat!.status = text;
    else if (at('multistatus', 'response', 'propstat', 'prop', 'calendar-data'))
      propstat!.data = text.trim();
    else if (at('multistatus', 'response', 'propstat')) {
      if (propstat!.status !== undefined && codeOf(propstat!.status)?.[0] !== '2')
        throw new UnreadableAnswer();
      if (propstat!.data !== undefined) objects.push(propstat!.data);
    } else if (at('multistatus', 'response')) {
      responses += 1;
      if (emptyNotFound(response!, collection)) notFound = true;
      else if (!given(response!)) throw new UnreadableAnswer();
    }
    path.pop();
    text = '';
    closed ||= path.length === 0;
  };
  parser.write(xml).close();
  if (!closed || (notFound && responses > 1)) throw new UnreadableAnswer();
  return notFound ? [] : objects;
}

/** A response that gives its object: a propstat or more (each judged), and no status but 2xx. */
const given = (response: Response) =>
  response.propstats > 0 && (response.status === undefined || codeOf(response.status)?.[0] === '2');

/** The 404 some servers answer for a query that matches nothing: for the collection, and bare. */
function emptyNotFound(response: Response, collection: string) {
  if (response.status === undefined || codeOf(response.status) !== '404') return false;
  if (response.propstats > 0 || response.error) return false;
  const trim = (path: string) => path.replace(/\/+$/, '');
  try {
    return trim(new URL(response.href, 'http://collection.invalid').pathname) === trim(collection);
  } catch {
    return false;
  }
}

/**
 * The components of each calendar object (its VEVENTs, VTIMEZONEs), one VCALENDAR of them all. An
 * object's bounds are whole lines: a line of text is escaped and folded lines go on with a space, so
 * only a real BEGIN or END is one, never a prospect's message saying "END:VCALENDAR" (which cut the
 * object there and hid the host's next event inside the site's own). One without both is no object:
 * the text then fails to parse, and the read with it.
 */
export function joinCalendars(objects: readonly string[]): string {
  const inner = objects.map((object) => {
    const lines = object.split(/\r?\n/);
    const begin = lines.indexOf('BEGIN:VCALENDAR');
    const end = lines.lastIndexOf('END:VCALENDAR');
    if (begin < 0 || end < begin) return 'BEGIN:VCALENDAR\r\n';
    const own = lines.slice(begin + 1, end);
    // Each object's own header lines (VERSION, PRODID, …) come before its first component.
    const first = own.findIndex((line) => line.startsWith('BEGIN:'));
    return first < 0 ? '' : `${own.slice(first).join('\r\n')}\r\n`;
  });
  return `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:caldav-report\r\n${inner.join('')}END:VCALENDAR\r\n`;
}
