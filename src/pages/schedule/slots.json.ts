/**
 * GET /schedule/slots.json: the free times for calls, as JSON for the dialog's time step
 * (src/server/booking/slots-answer.ts says what it takes and answers).
 */
import type { APIRoute } from 'astro';
import { getAvailability } from '../../lib/content';
import { handleSlots } from '../../server/booking/slots-answer';

export const prerender = false;

export const GET: APIRoute = ({ url, locals }) =>
  handleSlots(url, getAvailability, locals.app.services);

/**
 * HEAD is GET without its body. The production server answers HEAD with the GET of the route
 * itself (src/server/http/server.ts); `astro dev`, which has no server of ours, needs it said here.
 */
export const HEAD = GET;
