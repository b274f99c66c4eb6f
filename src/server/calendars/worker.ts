/**
 * A worker thread of ./workers.ts: a feed's text parsed once and its busy times read over each
 * window asked, or a CalDAV answer made one feed's text (./multistatus.ts), one at a time, off the
 * server's main thread. Node runs this file itself (type stripping), under `npm start` as in
 * `astro dev` and the tests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { busyTimes, CalendarTooLarge, NotACalendar, parseCalendar } from './busy-times.ts';
import { calendarObjects, joinCalendars, UnreadableAnswer } from './multistatus.ts';
import {
  WORKER_DATA,
  type JoinJob,
  type JoinReading,
  type ReadAnswer,
  type ReadJob,
} from './workers.ts';

function join(job: JoinJob): JoinReading {
  try {
    // As a Response's text(): UTF-8, a byte order mark dropped, a bad byte a replacement character.
    const xml = new TextDecoder().decode(job.multistatus);
    return { ok: true, text: joinCalendars(calendarObjects(xml, job.collection)) };
  } catch {
    // Any error (sax's quote the answer) says only that.
    return { ok: false, reason: new UnreadableAnswer().message };
  }
}

function answer(job: ReadJob): ReadAnswer {
  try {
    const calendar = parseCalendar(job.text);
    return {
      ok: true,
      windows: job.windows.map((window) => {
        const { maxSteps, ownUidSuffix } = job;
        const read = busyTimes(calendar, { ...window, maxSteps, ownUidSuffix });
        return {
          busy: Float64Array.from(read.busy.flatMap(({ start, end }) => [start, end])),
          events: read.events,
          warnings: read.warnings,
        };
      }),
    };
  } catch (error) {
    // ical.js's own messages may quote a line of someone's calendar: not for the log or /healthz.
    const known = error instanceof NotACalendar || error instanceof CalendarTooLarge;
    return { ok: false, reason: known ? error.message : 'it could not be read as iCalendar' };
  }
}

// Only as a worker of ./workers.ts (a test runner's own threads import modules too).
if (parentPort && workerData === WORKER_DATA) {
  const port = parentPort;
  port.on('message', (job: ReadJob | JoinJob) => {
    if ('multistatus' in job) return port.postMessage(join(job));
    const result = answer(job);
    port.postMessage(
      result,
      result.ok ? result.windows.map(({ busy }) => busy.buffer as ArrayBuffer) : [],
    );
  });
  port.postMessage('ready');
}
