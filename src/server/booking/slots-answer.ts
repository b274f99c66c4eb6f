/**
 * GET /schedule/slots.json?from=2026-12-01&to=2026-12-07: the free times for calls between two dates
 * (the agency's, inclusive; every offered day by default), as the store has them now; with `days=3`,
 * only those of the first three of those dates that have any (what the dialog asks for as it opens).
 * Cacheable for a minute: a time taken since is refused at booking with the nearest free ones instead.
 */
import { isCalendarDate, type Availability } from '../../domain/booking.ts';
import { firstDays } from '../../domain/call-times.ts';
import { MAX_DAYS, type ErrorAnswer, type FreeTimesAnswer } from '../../domain/api.ts';
import { jsonResponse } from '../json.ts';
import { reportStoreFailure } from '../log.ts';
import { bookingClosedMessage } from './messages.ts';
import { bookingIsOpen, currentFreeSlots } from './queries.ts';
import type { OpenServices } from './services.ts';

const json = (status: number, body: FreeTimesAnswer | ErrorAnswer, cache: string) =>
  jsonResponse(status, body, { 'Cache-Control': cache });

const isDate = (value: string | null) => value === null || isCalendarDate(value);

/** The availability is read once the query holds: a malformed one is refused without it. */
export async function handleSlots(
  url: URL,
  readAvailability: () => Promise<Availability>,
  open: OpenServices,
): Promise<Response> {
  const from = url.searchParams.get('from');
  const to = url.searchParams.get('to');
  const days = url.searchParams.get('days');
  if (!isDate(from) || !isDate(to)) {
    return json(400, { error: 'from and to are dates such as 2026-12-01.' }, 'no-store');
  }
  if (days !== null && !(/^[1-9]\d?$/.test(days) && Number(days) <= MAX_DAYS)) {
    return json(400, { error: `days is a number from 1 to ${MAX_DAYS}.` }, 'no-store');
  }
  const availability = await readAvailability();
  const { timeZone, callMinutes } = availability;
  if (!bookingIsOpen()) {
    return json(
      200,
      { open: false, message: bookingClosedMessage, timeZone, slots: [] },
      'no-store',
    );
  }
  try {
    const all = await currentFreeSlots(availability, await open(), {
      ...(from && { from }),
      ...(to && { to }),
    });
    const slots = days === null ? all : firstDays(all, timeZone, Number(days));
    return json(200, { open: true, timeZone, callMinutes, slots }, 'public, max-age=60');
  } catch (error) {
    reportStoreFailure(error);
    return json(503, { error: 'The free times cannot be loaded right now.' }, 'no-store');
  }
}
