/**
 * Sign-in links by e-mail, under abuse: whoever asks, and however often, a member is sent a new
 * link only when they hold no live unused one, and at most LINKS_PER_HOUR in an hour; the last of
 * an hour's links works until the hour lets another be sent, so a link is always at hand. A
 * link's id is made, and its hash kept, only as its e-mail is made (the job names the link by a
 * `ref` that signs nothing): the store never holds an id, the job neither.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { JobHandler } from '../jobs/queue.ts';
import { deliver } from '../mail/delivery.ts';
import type { MailSender } from '../mail/smtp.ts';
import { formatSignInMail } from '../mail/enquiry-mails.ts';
import type { MailSetup } from '../mail/mail-item.ts';
import type { EnquiryStore, QueuedJob } from '../store/types.ts';
import type { SentLink } from '../store/staff.ts';
import { newLink, storedHash } from './access.ts';

/** The job that e-mails a sign-in link. */
export const SIGN_IN_JOB = 'staff-sign-in';

/** What a sign-in job carries: the link it sends, by its `ref` (which signs nothing). */
export interface SignInPayload {
  ref: string;
}

/** How long a link works (the last of an hour's, longer: nextLinkExpiry). */
export const LINK_TTL_MS = 15 * 60_000;
/** The most sign-in e-mails a member is sent in any hour, whatever anyone asks. */
export const LINKS_PER_HOUR = 4;
const HOUR = 3_600_000;

/**
 * When a link sent now would expire, or undefined when none is to be sent: the member holds a live
 * unused one (a flood costs one e-mail per link's life), or was sent LINKS_PER_HOUR in the last
 * hour. The last of an hour's links lives until the first of them is an hour old, so that no time
 * passes with neither a working link nor the right to a new one (unless the member used it).
 * `recent`: the member's last LINKS_PER_HOUR links, newest first.
 */
export function nextLinkExpiry(recent: readonly SentLink[], now: number): number | undefined {
  if (recent.some((link) => link.usedAt === null && link.expiresAt > now)) return undefined;
  const thisHour = recent.filter((link) => link.createdAt > now - HOUR);
  if (thisHour.length >= LINKS_PER_HOUR) return undefined;
  if (thisHour.length < LINKS_PER_HOUR - 1) return now + LINK_TTL_MS;
  const first = Math.min(...thisHour.map((link) => link.createdAt));
  return Math.max(now + LINK_TTL_MS, first + HOUR);
}

/**
 * Sends `email` a link if the rule allows (nextLinkExpiry): the link kept and its e-mail queued in
 * one transaction. Whether one was queued (of two requests at once, one queues it).
 */
export async function sendLink(store: EnquiryStore, email: string, now: number) {
  return store.transaction(async (tx) => {
    const recent = await tx.recentStaffLinks(email, LINKS_PER_HOUR);
    const expiresAt = nextLinkExpiry(recent, now);
    if (expiresAt === undefined) return false;
    const ref = randomBytes(16).toString('base64url');
    const link = { ref, email, seq: (recent[0]?.seq ?? 0) + 1, createdAt: now, expiresAt };
    if (!(await tx.addStaffLink(link, now))) return false;
    const job: QueuedJob<SignInPayload> = { kind: SIGN_IN_JOB, dueAt: now, payload: { ref } };
    await tx.queue([job]);
    return true;
  });
}

export interface SignInMailOptions {
  store: EnquiryStore;
  /** Signs the links. */
  secret: string;
  sender: MailSender;
  /** The site's public address: the links' origin. */
  siteUrl: string;
  setup: Pick<MailSetup, 'from' | 'to' | 'content'>;
  now?: () => number;
}

/**
 * The sign-in e-mails' job handler: a new id for the link (its hash kept in place of any earlier
 * attempt's), then the e-mail, whose Message-ID is random. A link used or expired before it
 * could be sent is not sent.
 */
export function signInMailHandler(options: SignInMailOptions): JobHandler<SignInPayload> {
  const { store, secret, sender, siteUrl, setup, now = Date.now } = options;
  return async (job) => {
    const ref: unknown = job.payload?.ref;
    const at = now();
    const { id, token } = newLink(secret);
    const armed =
      typeof ref === 'string' ? await store.staff.armLink(ref, storedHash(id), at) : undefined;
    if (!armed) {
      const reason = 'it expired or was replaced before it could be sent';
      return { skipped: reason, log: `A staff sign-in link was not sent: ${reason}` };
    }
    const mail = {
      to: armed.email,
      link: `${siteUrl}/staff/sign-in?token=${token}`,
      minutes: Math.max(1, Math.floor((armed.expiresAt - at) / 60_000)),
      messageId: `<${randomUUID()}@staff-sign-in.invalid>`,
    };
    return deliver(sender, 'A staff sign-in link', job.attempts, () =>
      formatSignInMail(mail, setup),
    );
  };
}
