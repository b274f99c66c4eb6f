/** The server's log lines that need more than console: throttled reports of a failing store. */

let lastReport = 0;
let unreported = 0;

/**
 * Says in the server's log that the store failed (a database that is down): one line, and at most
 * one every 10 s while it keeps failing, since a load balancer asks /healthz every few seconds and
 * the outbox polls every second.
 */
export function reportStoreFailure(error: unknown, now = Date.now()) {
  if (now - lastReport < 10_000) {
    unreported++;
    return;
  }
  const more = unreported ? ` (${unreported} more failures since the last report)` : '';
  console.error(
    `The enquiry store failed: ${error instanceof Error ? error.message : String(error)}${more}`,
  );
  lastReport = now;
  unreported = 0;
}
