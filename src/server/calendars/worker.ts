/**
 * A worker thread of ./workers.ts: a feed's text parsed once and its busy times read over each
 * window asked, one feed at a time, off the server's main thread. Node runs this file itself (type
 * stripping), under `npm start` as in `astro dev` and the tests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { busyTimes, CalendarTooLarge, NotACalendar, parseCalendar } from './busy-times.ts';
import { WORKER_DATA, type ReadAnswer, type ReadJob } from './workers.ts';

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
  port.on('message', (job: ReadJob) => {
    const result = answer(job);
    port.postMessage(
      result,
      result.ok ? result.windows.map(({ busy }) => busy.buffer as ArrayBuffer) : [],
    );
  });
  port.postMessage('ready');
}
