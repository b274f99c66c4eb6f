/**
 * The store's methods written once for both engines, over the small database port of ./db.ts: the
 * outbox's marks, the counts, the site's secrets, the health check and field data's reads. Each
 * engine's store (./sqlite.ts, ./postgres/store.ts) extends this with its driver and dialect, and
 * keeps to itself only what its engine does differently (transactions, locks, batching).
 */
import { randomBytes } from 'node:crypto';
import { calendarCopies, type CalendarCopies } from './calendar-copies.ts';
import type { Db, Dialect } from './db.ts';
import {
  BOOKED_BETWEEN,
  BOOKED_SINCE,
  bookingAlertDue,
  callInstant,
  CANCEL_CALL,
  cancelledCall,
  checkCancel,
  checkMove,
  CONFIRM_CALL,
  confirmResult,
  FIRST_BOOKING_ALERT,
  fromRow,
  HOST_HAS_OTHER_CALL,
  INSERT_OUTBOX,
  LAPSE_CALL,
  lapsedCall,
  LAST_BOOKING_ALERT,
  mailsOnCancel,
  mailsOnLapse,
  mailsOnMove,
  MOVE_CALL,
  moveCandidates,
  movedCall,
  NEXT_BOOKING_ALERT,
  queuedMailParameters,
  SELECT_ENQUIRIES,
  SKIP_SUPERSEDED,
  UNCONFIRMED_DUE,
  type QueuedMail,
} from './sql.ts';
import {
  SlotTaken,
  type BookedCall,
  type BookingAlertRule,
  type CallChange,
  type CallMove,
  type CancelResult,
  type ConfirmResult,
  type MoveResult,
  type StoredEnquiry,
  type VitalRecord,
  type VitalsDay,
} from './types.ts';

const longest = 500;

export abstract class SharedStore {
  readonly calendarCopies: CalendarCopies;
  protected readonly sql: Db;
  protected readonly dialect: Dialect;

  protected constructor(sql: Db, dialect: Dialect) {
    this.sql = sql;
    this.dialect = dialect;
    this.calendarCopies = calendarCopies(sql);
  }

  async findById(id: string): Promise<StoredEnquiry | undefined> {
    const [row] = await this.sql.all(`${SELECT_ENQUIRIES} WHERE e.id = ?`, [id]);
    return row && fromRow(row);
  }

  async findByKey(key: string): Promise<StoredEnquiry | undefined> {
    const [row] = await this.sql.all(`${SELECT_ENQUIRIES} WHERE e.idempotency_key = ?`, [key]);
    return row && fromRow(row);
  }

  /** Every enquiry, in the order stored. */
  async all(): Promise<StoredEnquiry[]> {
    const rows = await this.sql.all(
      `${SELECT_ENQUIRIES} ORDER BY e.created_at, e.${this.dialect.insertOrder}`,
    );
    return rows.map(fromRow);
  }

  /** The calls booked (not cancelled) between two instants, each with its host. */
  async bookedBetween(from: string, to: string): Promise<BookedCall[]> {
    const rows = await this.sql.all(BOOKED_BETWEEN, [from, to]);
    return rows.map(({ id, start, end, host }) => ({
      id: id as string,
      start: callInstant(start),
      end: callInstant(end),
      host: host as string | null,
    }));
  }

  /** The enquiry `id`, read in the transaction `tx` and locked until it ends. */
  async #locked(tx: Db, id: string) {
    const [row] = await tx.all(`${SELECT_ENQUIRIES} WHERE e.id = ?${this.dialect.lockEnquiry}`, [
      id,
    ]);
    return row && fromRow(row);
  }

  /** Queues e-mails of enquiry `id` in the transaction `tx`. */
  protected async queue(tx: Db, id: string, mails: QueuedMail[]) {
    for (const mail of mails) await tx.run(INSERT_OUTBOX, queuedMailParameters(id, mail));
  }

  /**
   * Cancels a call (the link's or the staff's) in one transaction: its time free again, its e-mails
   * not sent yet (the reminders) dropped, the cancellations queued; or why not.
   */
  async cancelCall(
    id: string,
    queueMail: boolean,
    now = Date.now(),
    change?: CallChange,
  ): Promise<CancelResult> {
    return this.sql.transaction(async (tx): Promise<CancelResult> => {
      const checked = checkCancel(await this.#locked(tx, id), now);
      if ('refused' in checked) return checked.refused;
      const { enquiry, before } = checked;
      const call = cancelledCall(before, now);
      await tx.run(CANCEL_CALL, [call.cancelledAt, id]);
      await tx.run(SKIP_SUPERSEDED, [now, 'the call was cancelled', id]);
      if (queueMail && !enquiry.spam) await this.queue(tx, id, mailsOnCancel(call, now, change));
      return { status: 'cancelled', enquiry: { ...enquiry, call } };
    });
  }

  /**
   * Releases the calls not confirmed `confirmMs` after they were booked, `limit` at a time, in one
   * transaction: each lapses once, with its e-mails, however many processes sweep (PostgreSQL
   * leaves a call another sweep holds to it). How many lapsed.
   */
  async lapseUnconfirmed(confirmMs: number, queueMail: boolean, now = Date.now(), limit = 100) {
    return this.sql.transaction(async (tx) => {
      const due = await tx.all(`${UNCONFIRMED_DUE}${this.dialect.skipLocked}`, [
        new Date(now - confirmMs).toISOString(),
        callInstant(new Date(now)),
        limit,
      ]);
      for (const { id } of due as { id: string }[]) {
        const [row] = await tx.all(`${SELECT_ENQUIRIES} WHERE e.id = ?`, [id]);
        const enquiry = fromRow(row!);
        const call = lapsedCall(enquiry.call!, now);
        await tx.run(LAPSE_CALL, [call.lapsedAt, call.lapsedAt, id]);
        await tx.run(SKIP_SUPERSEDED, [now, 'the call lapsed unconfirmed', id]);
        if (queueMail && !enquiry.spam) await this.queue(tx, id, mailsOnLapse(call, now));
      }
      return due.length;
    });
  }

  /**
   * Moves a call, under the booking lock as a booking is stored: no booking or move comes between
   * the look at the hosts and the update. Its host keeps it if free then, else the first free host
   * offered; none: SlotTaken.
   */
  async moveCall(
    id: string,
    move: CallMove,
    queueMail: boolean,
    now = Date.now(),
  ): Promise<MoveResult> {
    try {
      return await this.sql.transaction(
        async (tx): Promise<MoveResult> => {
          const checked = checkMove(await this.#locked(tx, id), move);
          if ('refused' in checked) return checked.refused;
          const { enquiry, before } = checked;
          let host: string | undefined;
          for (const candidate of moveCandidates(before.host, move.hosts)) {
            const taken = await tx.all(HOST_HAS_OTHER_CALL, [move.end, move.start, candidate, id]);
            if (taken.length === 0) {
              host = candidate;
              break;
            }
          }
          if (host === undefined) throw new SlotTaken();
          await tx.run(MOVE_CALL, [move.start, move.end, host, id]);
          const { call, result } = movedCall(enquiry, before, move, host);
          await tx.run(SKIP_SUPERSEDED, [now, 'the call was moved', id]);
          if (queueMail && !enquiry.spam)
            await this.queue(
              tx,
              id,
              mailsOnMove(before, call, move.reminders ?? [], now, move.change),
            );
          return result;
        },
        { lock: 'booking' },
      );
    } catch (error) {
      throw this.dialect.isBookedStartConflict(error) ? new SlotTaken() : error;
    }
  }

  /** Confirms a call waiting for it, not cancelled and not begun; what that came to. */
  async confirmCall(id: string, now = Date.now()): Promise<ConfirmResult> {
    const changed = await this.sql.run(CONFIRM_CALL, [
      new Date(now).toISOString(),
      id,
      // To the second, as a call's start is written: SQLite compares the two as text.
      callInstant(new Date(now)),
    ]);
    return confirmResult(await this.findById(id), changed > 0, now);
  }

  /**
   * The calls booked in the last hour, when they call for an alert and this process claims it: a
   * compare and set of the last alert's time, so that of processes that read the same last alert,
   * one claims the next.
   */
  async claimBookingAlert(rule: BookingAlertRule, now = Date.now()) {
    const [count] = await this.sql.all(BOOKED_SINCE, [new Date(now - 3_600_000).toISOString()]);
    const recent = Number(count!.n);
    const [last] = await this.sql.all(LAST_BOOKING_ALERT);
    const lastAt = last && Number(last.sent_at);
    if (!bookingAlertDue(recent, lastAt, now, rule)) return undefined;
    const claimed = last
      ? await this.sql.all(NEXT_BOOKING_ALERT, [now, lastAt])
      : await this.sql.all(FIRST_BOOKING_ALERT, [now]);
    return claimed.length ? recent : undefined;
  }

  async markSkipped(outboxId: number, reason: string, now = Date.now()) {
    await this.sql.run(
      `UPDATE outbox SET skipped_at = ?, last_error = ?, leased_until = NULL WHERE id = ?`,
      [now, reason.slice(0, longest), outboxId],
    );
  }

  /** Gives back entries claimed and not sent (a process that stops): another may take them now. */
  async release(outboxIds: number[]) {
    for (const id of outboxIds)
      await this.sql.run(`UPDATE outbox SET leased_until = NULL WHERE id = ? AND sent_at IS NULL`, [
        id,
      ]);
  }

  async markSent(outboxId: number, now = Date.now()) {
    await this.sql.run(
      `UPDATE outbox SET sent_at = ?, attempts = attempts + 1, last_error = NULL,
         leased_until = NULL WHERE id = ?`,
      [now, outboxId],
    );
  }

  async markFailed(outboxId: number, nextAttemptAt: number, error: string) {
    await this.sql.run(
      `UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?,
         leased_until = NULL WHERE id = ?`,
      [nextAttemptAt, error.slice(0, longest), outboxId],
    );
  }

  async markUndeliverable(outboxId: number, reason: string, now = Date.now()) {
    await this.sql.run(
      `UPDATE outbox SET attempts = attempts + 1, undeliverable_at = ?, last_error = ?,
         leased_until = NULL WHERE id = ?`,
      [now, reason.slice(0, longest), outboxId],
    );
  }

  async countUndeliverable(): Promise<number> {
    return this.#count(`SELECT CAST(count(*) AS INTEGER) AS n FROM outbox
      WHERE undeliverable_at IS NOT NULL`);
  }

  async count(): Promise<number> {
    return this.#count(`SELECT CAST(count(*) AS INTEGER) AS n FROM enquiries`);
  }

  async #count(sql: string) {
    const [row] = await this.sql.all(sql);
    return Number(row!.n);
  }

  async isWritable(): Promise<boolean> {
    try {
      await this.sql.run(
        `INSERT INTO health (id, checked_at) VALUES (1, ?)
         ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at`,
        [Date.now()],
      );
      return true;
    } catch {
      return false;
    }
  }

  async bookingSecret(): Promise<string> {
    return this.#siteSecret('booking');
  }

  async vitalsSecret(): Promise<string> {
    return this.#siteSecret('vitals');
  }

  /** One of the site's own secrets, made at random on first use and kept. */
  async #siteSecret(name: 'booking' | 'vitals'): Promise<string> {
    const read = async () =>
      (await this.sql.all(`SELECT value FROM site_secrets WHERE name = ?`, [name]))[0]?.value as
        string | undefined;
    const kept = await read();
    if (kept) return kept;
    // Another process may make one meanwhile: the first one stored is everyone's. Read by a new
    // statement, the only kind that sees a row another process committed while this insert waited.
    await this.sql.run(
      `INSERT INTO site_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`,
      [name, randomBytes(32).toString('hex')],
    );
    return (await read())!;
  }

  async pruneVitals(day: string) {
    await this.sql.run(`DELETE FROM vitals_days WHERE day < ?`, [day]);
    return this.sql.run(`DELETE FROM vitals WHERE day < ?`, [day]);
  }

  async vitalsDaysSince(day: string): Promise<VitalsDay[]> {
    const rows = await this.sql.all(
      `SELECT ${this.dialect.day('d.day')} AS day, CAST(d.received AS INTEGER) AS received,
         CAST(d.dropped AS INTEGER) AS dropped,
         (SELECT CAST(count(*) AS INTEGER) FROM vitals v WHERE v.day = d.day) AS kept
       FROM vitals_days d WHERE d.day >= ? ORDER BY d.day`,
      [day],
    );
    return rows as unknown as VitalsDay[];
  }

  async vitalsSince(day: string): Promise<VitalRecord[]> {
    const rows = await this.sql.all(
      `SELECT ${this.dialect.day('day')} AS day, path, metric, value, rating, navigation,
         connection, device, build, target, phases, network
       FROM vitals WHERE day >= ? ORDER BY day, ${this.dialect.insertOrder}`,
      [day],
    );
    // SQLite keeps the phases as JSON text; PostgreSQL as jsonb, which its driver has parsed.
    return rows.map((row) => ({
      ...(row as unknown as VitalRecord),
      phases: typeof row.phases === 'string' ? JSON.parse(row.phases) : (row.phases ?? null),
    }));
  }
}
