import type { APIRoute } from 'astro';
import { serverConfig } from '../server/config';
import { reportStoreFailure } from '../server/log';
import { isStopping } from '../server/shutdown';
import type { HostCalendarHealth } from '../server/calendars/service';

export const prerender = false;

/**
 * 200 while the enquiry store accepts writes, 503 otherwise (a full disk, a database gone), with
 * which store it is; the server reconnects by itself, and this answers 200 again once it has. It
 * also counts the jobs that failed for good (an e-mail whose address the mail server refused),
 * which someone must see to: `npm run enquiries` says which and why (`mail.undeliverable`, the same
 * count by its older name, for monitors that read it); and how fresh each host's calendar is.
 * 503 `stopping` once the process has been told to stop (../server/main.ts).
 */
export const GET: APIRoute = async ({ locals }) => {
  // Stopping (SIGTERM, with STOP_DRAIN_MS): a balancer that asks takes this process out while it
  // still serves, so that no request meets it closed.
  if (isStopping())
    return new Response(JSON.stringify({ status: 'stopping' }), {
      status: 503,
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
    });
  const kind = serverConfig().databaseUrl ? 'postgresql' : 'sqlite';
  let writable = false;
  let failed: number | undefined;
  let calendars: HostCalendarHealth[] | undefined;
  try {
    const service = await locals.app.services();
    const { store } = service;
    calendars = service.calendars?.health();
    writable = await store.isWritable();
    failed = await store.countFailed();
  } catch (error) {
    // Said in the server's log; the answer names no host or file.
    reportStoreFailure(error);
  }
  return new Response(
    JSON.stringify({
      status: writable ? 'ok' : 'store not writable',
      store: { kind, state: writable ? 'writable' : 'unavailable' },
      ...(failed !== undefined && { jobs: { failed }, mail: { undeliverable: failed } }),
      // How fresh each host's calendar is (never its address): a host not fresh is offered nothing.
      ...(calendars && { calendars }),
    }),
    {
      status: writable ? 200 : 503,
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
    },
  );
};

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
