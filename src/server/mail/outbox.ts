/**
 * The delivery worker: it drains the outbox table, sending each due e-mail (./templates.ts) through
 * a MailSender (./smtp.ts), retrying with backoff while the SMTP server is down, and marking each
 * sent once it has been accepted, so a restart resends only what was never accepted. Entries are
 * claimed with a lease, so that processes sharing a store never send one twice.
 */
import {
  OUTBOX_CLAIM_BATCH,
  OUTBOX_LEASE_MS,
  OUTBOX_RETRY_BASE_MS,
  OUTBOX_RETRY_MAX_MS,
} from '../config.ts';
import { reportStoreFailure } from '../log.ts';
import type { EnquiryStore, MailKind, OutboxItem } from '../store/types.ts';
import { refusedForGood, type MailSender } from './smtp.ts';
import { formatMail, staleReason, type Mail, type MailSetup } from './templates.ts';

/** How long to wait before attempt n + 1: `baseMs` doubling to at most `maxMs` (15 minutes), with ±20% jitter. */
export function backoffMs(
  attempts: number,
  baseMs = OUTBOX_RETRY_BASE_MS,
  maxMs = OUTBOX_RETRY_MAX_MS,
  random = Math.random,
): number {
  const delay = Math.min(baseMs * 2 ** attempts, maxMs);
  return Math.round(delay * (0.8 + 0.4 * random()));
}

/** The outbox's store and sender, its timing, and what its e-mails need (MailSetup). */
export interface OutboxOptions extends MailSetup {
  store: EnquiryStore;
  sender: MailSender;
  pollMs: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** How long a claim on outbox entries holds (OUTBOX_LEASE_MS by default). */
  leaseMs?: number;
  /** Where a line about one e-mail goes (one not sent yet, one given up). */
  log?: (message: string) => void;
  /**
   * Where a failing store is reported: ../log.ts's reportStoreFailure (throttled, since the outbox
   * polls every second) unless given.
   */
  reportStoreFailure?: (error: unknown) => void;
  /** The time now (the tests' own clock): what is due, and whether a reminder is still worth it. */
  now?: () => number;
}

/** The worker that drains the outbox. One per process; it never sends the same enquiry twice at once. */
export class Outbox {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<void> | undefined;
  #stopped = true;
  /** Entries this process has claimed and not yet marked: given back if it stops before it can. */
  readonly #claimed = new Set<number>();
  readonly #options: OutboxOptions;

  constructor(options: OutboxOptions) {
    this.#options = options;
  }

  #now() {
    return this.#options.now?.() ?? Date.now();
  }

  start() {
    this.#stopped = false;
    this.kick();
  }

  /** Looks at the outbox now (after a new enquiry), instead of at the next poll. */
  kick() {
    if (this.#stopped) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.drain(), 0);
    this.#timer.unref?.();
  }

  /** Sends everything due; resolves when this round is done. */
  drain(): Promise<void> {
    this.#running ??= this.#round().finally(() => {
      this.#running = undefined;
      if (!this.#stopped) {
        this.#timer = setTimeout(() => void this.drain(), this.#options.pollMs);
        this.#timer.unref?.();
      }
    });
    return this.#running;
  }

  async #round() {
    const { store, leaseMs = OUTBOX_LEASE_MS } = this.#options;
    try {
      for (;;) {
        const due = await store.claimDue(this.#now(), OUTBOX_CLAIM_BATCH, leaseMs);
        if (due.length === 0) return;
        for (const item of due) this.#claimed.add(item.id);
        if (!(await this.#send(due))) return;
      }
    } catch (error) {
      // The store is unreachable: the next poll tries again.
      (this.#options.reportStoreFailure ?? reportStoreFailure)(error);
    }
  }

  /**
   * Sends claimed entries together; false once the SMTP server fails one for now (the rest are
   * tried). One that can never be sent (refused for good, or not even made) is marked so, not
   * retried.
   */
  async #send(due: OutboxItem[]) {
    const results = await Promise.all(
      due.map(async (item) => {
        try {
          return await this.#sendOne(item);
        } finally {
          this.#claimed.delete(item.id);
        }
      }),
    );
    // The server is likely down: leave the rest for the next round.
    return results.every(Boolean);
  }

  /** Sends one claimed entry and marks it; false when the SMTP server failed it for now. */
  async #sendOne(item: OutboxItem) {
    const { store, sender, log } = this.#options;
    const { id, enquiry, attempts, mail } = item;
    const giveUp = async (reason: string) => {
      await store.markUndeliverable(id, reason, this.#now());
      log?.(
        `${describe(mail)} of enquiry ${enquiry.id} failed for good: ${reason}; it will not be retried`,
      );
      // The SMTP server is up (or was never asked): the rest of the batch goes on.
      return true;
    };
    // A reminder of a call moved or cancelled since it was queued, say: dropped, not sent.
    const stale = staleReason(item, this.#now());
    if (stale) {
      await store.markSkipped(id, stale, this.#now());
      log?.(`${describe(mail)} of enquiry ${enquiry.id} was not sent: ${stale}`);
      return true;
    }
    // Made first, apart from the sending: a mail that cannot be made now never can be.
    let message: Mail;
    try {
      message = formatMail(item, this.#options);
    } catch (error) {
      return giveUp(`the e-mail could not be made: ${failureReason(error)}`);
    }
    try {
      await sender.send(message);
    } catch (error) {
      const reason = failureReason(error);
      if (refusedForGood(error)) return giveUp(reason);
      await store.markFailed(
        id,
        this.#now() + backoffMs(attempts, this.#options.retryBaseMs, this.#options.retryMaxMs),
        reason,
      );
      log?.(
        `${describe(mail)} of enquiry ${enquiry.id} not mailed yet (attempt ${attempts + 1}): ${reason}`,
      );
      return false;
    }
    await store.markSent(id, this.#now());
    return true;
  }

  /**
   * Stops polling and waits for the round under way, at most `waitMs`; what it still holds claimed
   * then (a send the SMTP server has not answered yet) is given back, so that a restart, or another
   * process, sends it at once rather than when its lease ends (OUTBOX_LEASE_MS, minutes).
   */
  async stop(waitMs = Infinity) {
    this.#stopped = true;
    clearTimeout(this.#timer);
    if (Number.isFinite(waitMs)) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        this.#running,
        new Promise((resolve) => (timer = setTimeout(resolve, waitMs))),
      ]);
      clearTimeout(timer);
    } else await this.#running;
    if (this.#claimed.size) {
      await this.#options.store.release([...this.#claimed]).catch(() => {});
      this.#claimed.clear();
    }
  }
}

const describe = (mail: MailKind) =>
  ({
    agency: 'The e-mail to the agency',
    prospect: 'The confirmation to the prospect',
    host: 'The invitation to the host',
    'agency-cancel': 'The cancellation to the agency',
    'prospect-cancel': 'The cancellation to the prospect',
    'host-cancel': 'The cancellation to the host',
    'agency-move': 'The move to the agency',
    'prospect-move': 'The move to the prospect',
    'host-move': 'The move to the host',
    'prospect-reminder': 'The reminder to the prospect',
    'host-reminder': 'The reminder to the host',
    'agency-lapse': 'The release of an unconfirmed call to the agency',
    'prospect-lapse': 'The release of an unconfirmed call to the prospect',
    'host-lapse': 'The release of an unconfirmed call to the host',
  })[mail];

/** Why a send failed, in words: an error's message (never "[object Error]"), else what was thrown. */
export function failureReason(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  const { message, responseCode } = (error ?? {}) as { message?: unknown; responseCode?: unknown };
  if (typeof message === 'string' && message) return message;
  if (typeof responseCode === 'number') return `the SMTP server answered ${responseCode}`;
  return String(error);
}
