/**
 * Booked calls kept: a booking, a move, a cancel, a confirmation, the lapse of calls not
 * confirmed, and the alert about the pace of bookings, each the rules of ./rules.ts run inside one
 * store transaction (../store/types.ts's StoreTx), which persists what they decided.
 */
import { DEFAULT_BOOKING_CAP, DEFAULT_NETWORK_CAP } from '../config.ts';
import type { CalendarWritePayload } from '../calendars/caldav-job.ts';
import { CALENDAR_WRITE_JOB } from '../store/calendar-writes.ts';
import { CONFIRMING_MAILS } from '../mail/mail-jobs.ts';
import {
  SlotTaken,
  type BookingAlertRule,
  type EnquiryStore,
  type NewEnquiry,
  type QueuedJob,
  type StoreTx,
  type StoredEnquiry,
} from '../store/types.ts';
import {
  bookingAlertDue,
  bookingCapReached,
  cancelledCall,
  candidateHosts,
  checkCancel,
  checkMove,
  confirmResult,
  lapsedCall,
  mailsOnCancel,
  mailsOnCommit,
  mailsOnLapse,
  mailsOnMove,
  moveCandidates,
  movedCall,
  storedForm,
  SUPERSEDED_MAILS,
  type BookingCaps,
  type CallCancel,
  type CallMove,
  type CancelAnswer,
  type ConfirmResult,
  type MoveResult,
  type ShownCancelResult,
} from './rules.ts';

/** The first of `candidates` free over [start, end) (besides enquiry `except`'s call); none: undefined. */
async function firstFree<Host extends string | null>(
  tx: StoreTx,
  candidates: readonly Host[],
  { start, end }: { start: string; end: string },
  except?: string,
): Promise<Host | undefined> {
  for (const host of candidates) if (await tx.hostIsFree(host, start, end, except)) return host;
  return undefined;
}

/** The write of a call into its host's calendar, as it stands when the job runs. */
const calendarWrite = (now: number): QueuedJob<CalendarWritePayload> => ({
  kind: CALENDAR_WRITE_JOB,
  dueAt: now,
  payload: { queuedAt: now },
});

export class Bookings {
  readonly store: EnquiryStore;
  readonly #caps: BookingCaps;
  readonly #onBooked: ((enquiry: StoredEnquiry) => void) | undefined;
  /** Whether calls are written into the hosts' calendars (CALENDAR_WRITE). */
  readonly #writeCalendars: boolean;
  readonly #now: () => number;
  /** This process's bookings, one after another: they wait for one lock anyway. */
  #bookings: Promise<unknown> = Promise.resolve();

  /**
   * `bookingCap`: future bookings allowed per e-mail address and per client (BOOKING_CAP);
   * `networkCap`: per wider network (BOOKING_NETWORK_CAP), none when there is no booking cap;
   * `onBooked`: told of each call booked, once committed (the server's log: ./call-log.ts);
   * `writeCalendars`: each change of a call queues its write into its host's calendar;
   * `now`: the clock its changes are made at (tests give theirs), unless a method is given a time.
   */
  constructor(
    store: EnquiryStore,
    {
      bookingCap = DEFAULT_BOOKING_CAP,
      networkCap = bookingCap === Infinity ? Infinity : DEFAULT_NETWORK_CAP,
      onBooked,
      writeCalendars = false,
      now = Date.now,
    }: Partial<BookingCaps> & {
      onBooked?: (enquiry: StoredEnquiry) => void;
      writeCalendars?: boolean;
      now?: () => number;
    } = {},
  ) {
    this.store = store;
    this.#caps = { bookingCap, networkCap };
    this.#onBooked = onBooked;
    this.#writeCalendars = writeCalendars;
    this.#now = now;
  }

  /** Queues the call's write into its host's calendar (one not run yet is superseded by it). */
  async #queueWrite(tx: StoreTx, id: string, now: number) {
    if (!this.#writeCalendars) return;
    await tx.dropJobs(id, [CALENDAR_WRITE_JOB], 'a later write of the call replaced it', now);
    await tx.queue([calendarWrite(now)], id);
  }

  /** Writes the call into its host's calendar again (the desk's Write again): whether it is one to write. */
  writeAgain(id: string, now = this.#now()): Promise<boolean> {
    return this.store.transaction(async (tx) => {
      const enquiry = id ? await tx.enquiry(id) : undefined;
      if (!this.#writeCalendars || !enquiry?.call || enquiry.spam) return false;
      await this.#queueWrite(tx, id, now);
      return true;
    });
  }

  /**
   * Stores an enquiry, or books its call, and, when `queueMail` and it is not spam, queues its
   * e-mails; resolves once committed. A repeat of an idempotency key is answered with the one
   * stored first. Spam is stored without its call. A booking over a cap rejects with
   * BookingCapReached; one whose every candidate host has a call then, with SlotTaken.
   */
  async commit(enquiry: NewEnquiry, queueMail: boolean): Promise<StoredEnquiry> {
    const kept = storedForm(enquiry);
    const mail = queueMail && !kept.spam;
    if (!kept.call)
      return this.store.commit(kept, mail ? mailsOnCommit(kept, null, this.#now()) : []);
    const booking = this.#bookings.then(() => this.#book(kept, mail));
    this.#bookings = booking.catch(() => {});
    const { enquiry: booked, isNew } = await booking;
    // Once committed, and once: a repeat of the post is answered with the call it booked.
    if (isNew) this.#onBooked?.(booked);
    return booked;
  }

  /**
   * Under the booking lock, so that the calls ahead of its address and client are counted, and
   * its hosts looked at, with no other booking coming in between; the first free host takes it.
   */
  #book(enquiry: NewEnquiry, mail: boolean): Promise<{ enquiry: StoredEnquiry; isNew: boolean }> {
    const key = enquiry.idempotencyKey;
    return this.store.transaction(
      async (tx) => {
        // A repeat of a booking is answered with the one stored, not counted against the cap.
        const earlier = key && (await tx.enquiryByKey(key));
        if (earlier) return { enquiry: earlier, isNew: false };
        const now = this.#now();
        const reached = bookingCapReached(await tx.callsAhead(now), enquiry, this.#caps);
        if (reached) throw reached;
        const host = await firstFree(tx, candidateHosts(enquiry.call!), enquiry.call!);
        if (host === undefined) throw new SlotTaken();
        const jobs = [
          ...(mail ? mailsOnCommit(enquiry, host, now) : []),
          ...(this.#writeCalendars ? [calendarWrite(now)] : []),
        ];
        const stored = await tx.insertEnquiry(enquiry, host, now, jobs);
        return stored
          ? { enquiry: stored, isNew: true }
          : { enquiry: (await tx.enquiryByKey(key!))!, isNew: false };
      },
      { lock: 'booking' },
    );
  }

  /**
   * Cancels a call (the link's or the staff's): its time free again, its e-mails not sent yet (the
   * reminders) dropped, the cancellations queued; or why not. Stored with who cancelled it and the
   * reason (CallCancel's `member` and `change`). Asked at the `sequence` the desk's page showed, a
   * call moved since is not cancelled ('used').
   */
  cancelCall<Cancel extends CallCancel>(
    id: string,
    { queueMail, now = this.#now(), change, member, sequence }: Cancel,
  ): Promise<CancelAnswer<Cancel>> {
    const cancelled = this.store.transaction(async (tx): Promise<ShownCancelResult> => {
      const checked = checkCancel(await tx.enquiry(id), now, sequence);
      if ('refused' in checked) return checked.refused;
      const { enquiry, before } = checked;
      const who = {
        by: member ?? (change?.by === 'staff' ? 'staff' : 'prospect'),
        ...(change?.reason && { reason: change.reason }),
      };
      const call = cancelledCall(before, now);
      await tx.cancelCall(id, { at: now, ...who });
      await tx.dropJobs(id, SUPERSEDED_MAILS, 'the call was cancelled', now);
      if (queueMail && !enquiry.spam) await tx.queue(mailsOnCancel(call, now, change), id);
      await this.#queueWrite(tx, id, now);
      const stored = {
        ...call,
        cancelledBy: who.by,
        ...(who.reason && { cancelReason: who.reason }),
      };
      return { status: 'cancelled', enquiry: { ...enquiry, call: stored } };
    });
    // 'used' comes only of a sequence shown (checkCancel): the answer's type says so.
    return cancelled as Promise<CancelAnswer<Cancel>>;
  }

  /**
   * Moves a call, under the booking lock: no booking or move comes between the look at the hosts
   * and the update. Its host keeps it if free then, else the first free host offered; none:
   * SlotTaken, and nothing changes.
   */
  moveCall(id: string, move: CallMove, queueMail: boolean, now = this.#now()): Promise<MoveResult> {
    return this.store.transaction(
      async (tx) => {
        const checked = checkMove(await tx.enquiry(id), move, now);
        if ('refused' in checked) return checked.refused;
        const { enquiry, before } = checked;
        const host = await firstFree(tx, moveCandidates(before.host, move.hosts), move, id);
        if (host === undefined) throw new SlotTaken();
        const { call, result } = movedCall(enquiry, before, move, host, now);
        const made = { by: call.movedBy, member: call.movedByMember, at: now };
        await tx.moveCall(id, call, made);
        await tx.dropJobs(id, SUPERSEDED_MAILS, 'the call was moved', now);
        if (queueMail && !enquiry.spam)
          await tx.queue(mailsOnMove(before, call, move.reminders ?? [], now, move.change), id);
        await this.#queueWrite(tx, id, now);
        return result;
      },
      { lock: 'booking' },
    );
  }

  /** Confirms a call waiting for it, not cancelled and not begun; what that came to. */
  confirmCall(id: string, now = this.#now()): Promise<ConfirmResult> {
    return this.store.transaction(async (tx) => {
      const changed = await tx.confirmCall(id, now);
      if (changed) await this.#queueWrite(tx, id, now);
      return confirmResult(await tx.enquiry(id), changed, now);
    });
  }

  /**
   * Releases the calls not confirmed `confirmMs` after their confirm link was sent (CONFIRMING_MAILS;
   * one booked while the mail server was down waits for it), `limit` at a time, in one
   * transaction: each lapses once, with its e-mails, however many processes sweep (a call another
   * sweep holds is left to it). How many lapsed.
   */
  lapseUnconfirmed(confirmMs: number, queueMail: boolean, now = this.#now(), limit = 100) {
    return this.store.transaction(async (tx) => {
      const due = await tx.unconfirmedDue(now - confirmMs, now, limit, CONFIRMING_MAILS);
      for (const enquiry of due) {
        const call = lapsedCall(enquiry.call!, now);
        await tx.cancelCall(enquiry.id, { at: now, lapsed: true });
        await tx.dropJobs(enquiry.id, SUPERSEDED_MAILS, 'the call lapsed unconfirmed', now);
        if (queueMail && !enquiry.spam) await tx.queue(mailsOnLapse(call, now), enquiry.id);
        await this.#queueWrite(tx, enquiry.id, now);
      }
      return due.length;
    });
  }

  /**
   * The calls booked in the last hour, when they call for an alert and this process claims it (of
   * processes that read the same last alert, one claims the next); else undefined.
   */
  async claimBookingAlert(rule: BookingAlertRule, now = this.#now()) {
    const recent = await this.store.bookedSince(now - 3_600_000);
    const last = await this.store.lastAlert('bookings');
    if (!bookingAlertDue(recent, last, now, rule)) return undefined;
    return (await this.store.claimAlert('bookings', now, last)) ? recent : undefined;
  }
}
