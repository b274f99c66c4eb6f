/**
 * The e-mail jobs' handling of mail that fails: retried while the failure may pass (the SMTP server is
 * down), given up at once when it cannot (a 5xx refusal, a mail that cannot even be made), and
 * said in the log in words. Against both stores.
 */
import type { Bookings } from '../../src/server/booking/calls';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failureReason } from '../../src/server/mail/delivery';
import { mailQueue } from '../support/mail-queue';
import { refusedForGood } from '../../src/server/mail/smtp';
import type { Mail } from '../../src/server/mail/message';
import type { EnquiryStore } from '../../src/server/store/types';
import { ahead, call, enquiry } from '../support/records';
import { backends, type Backend } from '../support/store-backends';

/** A day on: every retry is due by then. */
const tomorrow = () => Date.now() + 86_400_000;

/** What nodemailer rejects with when the server refuses the recipient. */
const refusal = () =>
  Object.assign(
    new Error(
      "Can't send mail - all recipients were rejected: 550 5.1.1 <nobody@example.com>: mailbox unavailable",
    ),
    { code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO' },
  );

describe.each(Object.keys(backends) as (keyof typeof backends)[])(
  'the e-mail jobs on %s',
  (kind) => {
    let backend: Backend;
    let store: EnquiryStore;
    let bookings: Bookings;
    beforeEach(async () => {
      backend = await backends[kind]();
      store = backend.store;
      bookings = backend.bookings;
    });
    afterEach(() => backend.cleanup());

    /** A queue of e-mail jobs whose sender is `send`; what it sent and what it logged. */
    const mailJobs = (send: (mail: Mail) => Promise<void>) => {
      const sent: Mail[] = [];
      const logged: string[] = [];
      const worker = mailQueue({
        store,
        from: 'site@example.com',
        to: 'agency@example.com',
        content: { brand: 'Agency', email: 'hello@agency.example', hosts: [] },
        pollMs: 60_000,
        retryBaseMs: 1000,
        sender: {
          async send(mail) {
            await send(mail);
            sent.push(mail);
          },
        },
        log: (line) => logged.push(line),
      });
      return { worker, sent, logged };
    };

    it('gives up an e-mail the SMTP server refuses for good, says why, and sends the rest', async () => {
      const refused = await bookings.commit(enquiry({ email: 'nobody@example.com' }), true);
      const kept = await bookings.commit(enquiry(), true);
      const { worker, sent, logged } = mailJobs(async (mail) => {
        if (mail.replyTo === 'nobody@example.com') throw refusal();
      });
      await worker.drain();
      expect(sent.map((mail) => mail.replyTo)).toEqual(['grace@example.com']);
      expect(logged).toEqual([
        `The e-mail to the agency of enquiry ${refused.id.slice(0, 8)} failed for good: Can't send mail - all recipients were rejected: 550 5.1.1 <nobody@example.com>: mailbox unavailable; it will not be retried`,
      ]);
      expect(await store.claimDue(tomorrow(), 100, 0)).toEqual([]);
      expect(await store.countFailed()).toBe(1);
      expect(await store.findById(refused.id)).toMatchObject({
        mailedAt: null,
        mailAttempts: 1,
        mailFailure: expect.stringContaining('550 5.1.1'),
      });
      expect((await store.findById(kept.id))?.mailFailure).toBeNull();
      // Not tried again.
      await worker.drain();
      expect(sent).toHaveLength(1);
      expect(logged).toHaveLength(1);
    });

    it('gives up on a bare 5xx too, in words', async () => {
      const stored = await bookings.commit(enquiry(), true);
      const { worker, logged } = mailJobs(async () => {
        throw { responseCode: 550 };
      });
      await worker.drain();
      expect(logged).toEqual([
        `The e-mail to the agency of enquiry ${stored.id.slice(0, 8)} failed for good: the SMTP server answered 550; it will not be retried`,
      ]);
      expect(await store.countFailed()).toBe(1);
    });

    it('retries, with its backoff, what may pass: a connection refused, a wrong password', async () => {
      const first = await bookings.commit(enquiry(), true);
      const { worker, sent, logged } = mailJobs(async () => {
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ESOCKET' });
      });
      const before = Date.now();
      await worker.drain();
      expect(sent).toEqual([]);
      expect(logged).toEqual([
        `The e-mail to the agency of enquiry ${first.id.slice(0, 8)} not mailed yet (attempt 1): connect ECONNREFUSED 127.0.0.1:25`,
      ]);
      // Not due before its backoff (1 s ± 20%), due after it.
      expect(await store.claimDue(before + 700, 100, 0)).toEqual([]);
      expect(await store.claimDue(tomorrow(), 100, 0)).toMatchObject([
        { kind: 'agency', attempts: 1, enquiry: { id: first.id, mailFailure: null } },
      ]);
      expect(await store.countFailed()).toBe(0);

      // A 535 is the configuration's fault, not the e-mail's: it waits for the password to be put right.
      const { worker: misconfigured } = mailJobs(async () => {
        throw Object.assign(new Error('Invalid login: 535 5.7.8 Authentication failed'), {
          code: 'EAUTH',
          responseCode: 535,
        });
      });
      await misconfigured.drain();
      expect(await store.countFailed()).toBe(0);
    });

    it('gives up an e-mail that cannot even be made, before anything is sent', async () => {
      // A booked call's confirmation needs the booking options (the cancel link's secret).
      const booking = await bookings.commit(call(ahead('2027-01-05T09:30:00Z')), true);
      const { worker, sent, logged } = mailJobs(async () => {});
      await worker.drain();
      expect(sent.map((mail) => mail.to)).toEqual(['agency@example.com']);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatch(
        new RegExp(
          `^The confirmation to the prospect of enquiry ${booking.id.slice(0, 8)} failed for good: the e-mail could not be made: .+; it will not be retried$`,
        ),
      );
      expect(logged[0]).not.toContain('[object');
      expect(await store.claimDue(tomorrow(), 100, 0)).toEqual([]);
      expect(await store.countFailed()).toBe(1);
      // The agency's e-mail went; the enquiry names the one that did not.
      expect((await store.findById(booking.id))?.mailFailure).toMatch(
        /^prospect: the e-mail could not be made: /,
      );
      expect((await store.findById(booking.id))?.mailedAt).not.toBeNull();
    });
  },
);

describe('a send failure', () => {
  it('is said in words, whatever was thrown', () => {
    expect(failureReason(new Error('Greeting never received'))).toBe('Greeting never received');
    expect(failureReason(new TypeError(''))).toBe('TypeError');
    expect(failureReason({ message: 'socket hang up' })).toBe('socket hang up');
    expect(failureReason({ responseCode: 552 })).toBe('the SMTP server answered 552');
    expect(failureReason('timeout')).toBe('timeout');
    expect(failureReason(undefined)).toBe('undefined');
  });

  it('is for good when the server answered 5xx about the e-mail, not about the connection', () => {
    expect(refusedForGood({ responseCode: 550 })).toBe(true);
    expect(refusedForGood({ responseCode: 599 })).toBe(true);
    expect(
      refusedForGood(Object.assign(new Error(), { responseCode: 552, code: 'EMESSAGE' })),
    ).toBe(true);
    expect(refusedForGood({ responseCode: 451 })).toBe(false);
    expect(refusedForGood({ responseCode: 600 })).toBe(false);
    expect(refusedForGood({ responseCode: 535, code: 'EAUTH' })).toBe(false);
    expect(refusedForGood({ responseCode: 554, code: 'EPROTOCOL' })).toBe(false);
    expect(refusedForGood(new Error('ECONNREFUSED'))).toBe(false);
    expect(refusedForGood(undefined)).toBe(false);
    expect(refusedForGood('550')).toBe(false);
  });
});
