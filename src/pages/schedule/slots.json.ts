/**
 * GET /schedule/slots.json?from=2026-12-01&to=2026-12-07: the free times for calls between two dates
 * (the agency's, inclusive; every offered day by default), as the store has them now. Cacheable for a
 * minute: a time taken since is refused at booking with the nearest free ones instead.
 */
import type { APIRoute } from 'astro';
import { getAvailability } from '../../lib/content';
import {
  bookingClosedMessage,
  bookingIsOpen,
  currentFreeSlots,
} from '../../server/enquiries/service';
import { reportStoreFailure } from '../../server/log';

export const prerender = false;

const json = (status: number, body: unknown, cache: string) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': cache },
  });

const isDate = (value: string | null) => value === null || /^\d{4}-\d{2}-\d{2}$/.test(value);

export const GET: APIRoute = async ({ url }) => {
  const from = url.searchParams.get('from');
  const to = url.searchParams.get('to');
  if (!isDate(from) || !isDate(to)) {
    return json(400, { error: 'from and to are dates such as 2026-12-01.' }, 'no-store');
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
    const slots = await currentFreeSlots(availability, {
      ...(from && { from }),
      ...(to && { to }),
    });
    return json(200, { open: true, timeZone, callMinutes, slots }, 'public, max-age=60');
  } catch (error) {
    reportStoreFailure(error);
    return json(503, { error: 'The free times cannot be loaded right now.' }, 'no-store');
  }
};
