/**
 * GET /healthz: 200 while the enquiry store accepts writes, 503 otherwise (a full disk, a database
 * gone), with which store it is; the server reconnects by itself, and this answers 200 again once
 * it has. It also counts the jobs that failed for good (an e-mail whose address the mail server
 * refused), which someone must see to: `npm run enquiries` says which and why (`mail.undeliverable`,
 * the same count by its older name, for monitors that read it); and how fresh each host's calendar
 * is. 503 `stopping` once the process has been told to stop (./main.ts). It stands beside the front
 * door (./app.ts): it reads what the front door opened, the store, its jobs and the calendars.
 */
import { serverConfig } from './config.ts';
import { jsonBody } from './json.ts';
import { reportStoreFailure } from './log.ts';
import { isStopping } from './shutdown.ts';
import type { HostCalendarHealth } from './calendars/service.ts';
import type { OpenServices } from './booking/services.ts';

const answer = (status: number, body: object) =>
  jsonBody(status, body, { 'Cache-Control': 'no-store' });

export async function healthAnswer(open: OpenServices): Promise<Response> {
  // Stopping (SIGTERM, with STOP_DRAIN_MS): a balancer that asks takes this process out while it
  // still serves, so that no request meets it closed.
  if (isStopping()) return answer(503, { status: 'stopping' });
  const kind = serverConfig().databaseUrl ? 'postgresql' : 'sqlite';
  let writable = false;
  let failed: number | undefined;
  let calendars: HostCalendarHealth[] | undefined;
  try {
    const services = await open();
    calendars = services.calendars?.health();
    writable = await services.store.isWritable();
    failed = await services.store.countFailed();
  } catch (error) {
    // Said in the server's log; the answer names no host or file.
    reportStoreFailure(error);
  }
  return answer(writable ? 200 : 503, {
    status: writable ? 'ok' : 'store not writable',
    store: { kind, state: writable ? 'writable' : 'unavailable' },
    ...(failed !== undefined && { jobs: { failed }, mail: { undeliverable: failed } }),
    // How fresh each host's calendar is (never its address): a host not fresh is offered nothing.
    ...(calendars && { calendars }),
  });
}
