/**
 * /staff/enquiries.csv: every enquiry, with its notes, as the CLI's --csv writes it, for a member
 * signed in, streamed a page at a time.
 */
import { setImmediate as aTurnLater } from 'node:timers/promises';
import { refusalOf, type PostVerdict } from '../requests/post-gate.ts';
import { csvHeader, csvRows, hostNamesOf, type HostNames } from '../enquiries/listing.ts';
import type { EnquiryStore, ExportCursor } from '../store/types.ts';
import { DESK, deskHeaders, deskHosts, record, type OpenDesk } from './desk.ts';
import type { RefusedPage } from './refused.ts';
import { signedInVisit } from './visit.ts';

/**
 * /staff/enquiries.csv (POST, through the gate: the desk's button): every enquiry as the CLI's
 * --csv writes it, for a member signed in, recorded in the audit log. A post, so that no other
 * site can make a member's browser download it, or write the line in their name. The store out of
 * reach: the staff page that says so, never a file (a browser shows a page it is not told to save),
 * its "Try again" leading to the desk, where the button is.
 */
export async function handleEnquiriesCsv(
  request: Request,
  post: PostVerdict | undefined,
  open: OpenDesk,
): Promise<Response | RefusedPage> {
  // Only a post through the gate exports (routes.ts takes no other method here).
  const refused = post
    ? refusalOf(post)
    : { status: 405, message: 'Use the desk’s button.', headers: { Allow: 'POST' } };
  if (refused)
    return new Response(refused.message, {
      status: refused.status,
      headers: deskHeaders(refused.headers),
    });
  const visit = await signedInVisit(request, undefined, open, DESK);
  if ('type' in visit) return visit.type === 'page' ? visit : visit.response;
  const { desk, member, now } = visit;
  await record(desk, member, now, { action: 'exported the enquiries' });
  const hosts = hostNamesOf(await deskHosts(desk));
  return new Response(csvStream(desk.store, hosts), {
    headers: deskHeaders({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="enquiries.csv"',
    }),
  });
}

/** Enquiries read for the CSV at a time. */
const CSV_PAGE = 500;

/**
 * The CSV as it is read, a page of enquiries (with their notes) at a time, never whole in memory:
 * a byte-order mark first, so that spreadsheets read it as UTF-8 ("£40k", not "Â£40k").
 */
export function csvStream(store: EnquiryStore, hosts: HostNames): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: ExportCursor | undefined;
  let started = false;
  return new ReadableStream({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`\uFEFF${csvHeader()}`));
        return;
      }
      // Other requests' turn first: SQLite reads a page at once, and a large store's pages read
      // one after the other, in promises only, would hold every visitor until the last.
      await aTurnLater();
      const { rows, next } = await store.desk.exportPage(cursor, CSV_PAGE);
      if (rows.length > 0) {
        const notes = await store.desk.notesOf(rows.map((e) => e.id));
        controller.enqueue(encoder.encode(csvRows(rows, notes, hosts)));
      }
      if (rows.length < CSV_PAGE) controller.close();
      cursor = next;
    },
  });
}
