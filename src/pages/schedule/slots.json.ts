/**
 * GET /schedule/slots.json?from=2026-12-01&to=2026-12-07: the free times for calls between two dates
 * (the agency's, inclusive; every offered day by default), as the store has them now; with `days=3`,
 * only those of the first three of those dates that have any (what the dialog asks for as it opens).
 * Cacheable for a minute: a time taken since is refused at booking with the nearest free ones instead.
 */
import type { APIRoute } from 'astro';
import { getAvailability } from '../../lib/content';
import { bookingIsOpen, currentFreeSlots } from '../../server/booking/queries';
import { bookingClosedMessage } from '../../server/booking/messages';
import { jsonResponse } from '../../server/json';
import { reportStoreFailure } from '../../server/log';
import { isCalendarDate } from '../../domain/booking';
import { firstDays } from '../../domain/call-times';
import { MAX_DAYS, type ErrorAnswer, type FreeTimesAnswer } from '../../domain/api';

export const prerender = false;

const json = (status: number, body: FreeTimesAnswer | ErrorAnswer, cache: string) =>
  jsonResponse(status, body, { 'Cache-Control': cache });

const isDate = (value: string | null) => value === null || isCalendarDate(value);

export const GET: APIRoute = async ({ url, locals }) => {
  const from = url.searchParams.get('from');
  const to = url.searchParams.get('to');
  const days = url.searchParams.get('days');
  if (!isDate(from) || !isDate(to)) {
    return json(400, { error: 'from and to are dates such as 2026-12-01.' }, 'no-store');
  }
  if (days !== null && !(/^[1-9]\d?$/.test(days) && Number(days) <= MAX_DAYS)) {
    return json(400, { error: `days is a number from 1 to ${MAX_DAYS}.` }, 'no-store');
  }
  const availability = await getAvailability();
  const { timeZone, callMinutes } = availability;
  if (!bookingIsOpen()) {
    return json(
      200,
      { open: false, message: bookingClosedMessage, timeZone, slots: [] },
      'no-store',
    );
  }
  try {
    const all = await currentFreeSlots(availability, await locals.app.services(), {
      ...(from && { from }),
      ...(to && { to }),
    });
    const slots = days === null ? all : firstDays(all, timeZone, Number(days));
    return json(200, { open: true, timeZone, callMinutes, slots }, 'public, max-age=60');
  } catch (error) {
    reportStoreFailure(error);
    return json(503, { error: 'The free times cannot be loaded right now.' }, 'no-store');
  }
};

/**
 * HEAD is GET without its body. The production server answers HEAD with the GET of the route
 * itself (src/server/http/server.ts); `astro dev`, which has no server of ours, needs it said here.
 */
export const HEAD = GET;
