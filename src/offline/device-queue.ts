/**
 * The enquiries kept on the visitor's device while there is no connection: an IndexedDB store that
 * the forms write to when a post cannot reach the server, and that the page (on `online`, and on the
 * next visit) and the service worker (Background Sync) send from. Every entry carries the idempotency
 * key it was first posted with, so however many of them send it, the server stores it once; an entry
 * is deleted as soon as the server has acknowledged it, but a booked call's, which stays, without its
 * fields, as a note of its page until the visitor has seen it.
 *
 * Shared by the page and the worker: nothing here touches `window` or `document`.
 */
import { createStore, del, set, values, type UseStore } from 'idb-keyval';
import {
  endpoints,
  isSitePath,
  refusalReason,
  type RefusalAnswer,
  type SuccessAnswer,
} from '../domain/api';
import type { EnquiryKind } from '../domain/forms';

export interface QueuedEnquiry {
  /** The submission's idempotency key, also the entry's key in the store. */
  key: string;
  /** The form's endpoint, a path of this site. */
  action: string;
  kind: EnquiryKind;
  /** The form's fields as sent (text only: neither form has a file input). */
  fields: [string, string][];
  queuedAt: number;
  /** The server refused it (not for lack of network): its message, kept until the visitor dismisses it. */
  refused?: string;
  /**
   * Refused for its time: 'taken' by someone else while it waited on the device (the server
   * offered the nearest free times, which the notice cannot show), or no longer offered.
   */
  refusedTime?: 'taken' | 'refused';
  /**
   * Booked: the call's page (/schedule/booked?token=…). A booking sent in the background, the page
   * closed, is still told on the next visit, with its link (with e-mail off, the only way to its
   * change and cancel links); kept without its fields until the visitor dismisses it.
   */
  booked?: string;
  /**
   * Why it was kept: no network (or no answer in time), or a server that could not take it just
   * then (503: its database was down; or a proxy's 502 or 504: it was restarting). Either way it is
   * sent again by itself.
   */
  why?: 'offline' | 'busy';
}

/** What became of an entry that was tried: sent (and deleted, or kept as booked), refused, or kept for later. */
export interface SendResult extends Pick<QueuedEnquiry, 'refusedTime' | 'booked'> {
  key: string;
  outcome: 'sent' | 'refused' | 'kept';
  error?: string;
}

/** The Background Sync tag and the channel on which whoever sent an entry tells the open pages. */
export const SYNC_TAG = 'enquiry-outbox';
export const CHANNEL = 'enquiry-outbox';
/** A flag in localStorage while entries are kept: the page's first move reads it without IndexedDB. */
export const PENDING_FLAG = 'enquiry-outbox';

/** How long a post may go unanswered before the enquiry is kept for later instead. */
export const POST_TIMEOUT_MS = 15_000;

let db: UseStore | undefined;
const store = () => (db ??= createStore('enquiry-outbox', 'enquiries'));

export const keep = (entry: QueuedEnquiry) => set(entry.key, entry, store());
export const forget = (key: string) => del(key, store());
export const kept = async () =>
  ((await values<QueuedEnquiry>(store())) ?? []).sort((a, b) => a.queuedAt - b.queuedAt);

/** The post did not reach the server or had no answer in time: worth keeping, not the visitor's fault. */
export class Unreachable extends Error {}

/** Posts a form's fields as the forms do (multipart, asking for JSON); throws Unreachable for lack of network. */
export async function post(action: string, body: FormData, timeoutMs = POST_TIMEOUT_MS) {
  const abort = new AbortController();
  // setTimeout rather than AbortSignal.timeout: a test's clock can move it.
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    return await fetch(action, {
      method: 'POST',
      body,
      headers: { Accept: 'application/json' },
      signal: abort.signal,
      credentials: 'same-origin',
    });
  } catch (error) {
    throw new Unreachable(error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(timer);
  }
}

export function formData(fields: [string, string][]) {
  const data = new FormData();
  for (const [name, value] of fields) data.append(name, value);
  return data;
}

/**
 * Sends every kept entry once. Sent ones are deleted; one the server refuses outright (a 4xx other
 * than the rate limit) is marked refused and kept for the visitor to see; the rest stay for later.
 */
export async function sendKept(): Promise<SendResult[]> {
  const results: SendResult[] = [];
  for (const entry of await kept()) {
    if (entry.refused || entry.booked) continue;
    try {
      const response = await post(entry.action, formData(entry.fields));
      const body = (await response.json().catch(() => ({}))) as Partial<SuccessAnswer> &
        RefusalAnswer;
      if (response.ok) {
        const booked =
          isSitePath(body.location) && body.location.startsWith(endpoints.booked)
            ? body.location
            : undefined;
        if (booked) await keep({ ...entry, fields: [], booked });
        else await forget(entry.key);
        results.push({ key: entry.key, outcome: 'sent', booked });
      } else if (response.status >= 400 && response.status < 500 && response.status !== 429) {
        const error = refusalReason(body);
        const refusedTime = body.errors?.slot
          ? body.alternatives?.length
            ? 'taken'
            : 'refused'
          : undefined;
        await keep({ ...entry, refused: error, refusedTime });
        results.push({ key: entry.key, outcome: 'refused', error, refusedTime });
      } else {
        results.push({ key: entry.key, outcome: 'kept' });
      }
    } catch {
      // Still no network: the rest would fail the same way.
      results.push({ key: entry.key, outcome: 'kept' });
      break;
    }
  }
  return results;
}
