/** GET /healthz: the store's, the jobs' and the calendars' state (src/server/health.ts says what). */
import type { APIRoute } from 'astro';
import { healthAnswer } from '../server/health';

export const prerender = false;

export const GET: APIRoute = ({ locals }) => healthAnswer(locals.app.services);

/**
 * HEAD is GET without its body. The production server answers HEAD with the GET of the route
 * itself (src/server/http/server.ts); `astro dev`, which has no server of ours, needs it said here.
 */
export const HEAD = GET;

export const ALL: APIRoute = () =>
  new Response('Use GET.', {
    status: 405,
    headers: { Allow: 'GET', 'Content-Type': 'text/plain; charset=utf-8' },
  });
