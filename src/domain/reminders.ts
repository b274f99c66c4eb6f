/**
 * When a booked call's reminders go out, in one place: their leads (availability.yaml's
 * `reminders`), when each is due and which are left out, when one is no longer worth sending, and
 * the notice period they respect. Here, not in the server's booking/, because the e-mails' templates
 * (server/mail/, a floor below booking/) need the notice too, and the content's schema the leads.
 */

/** "24h", "90m", "2d": a reminder's lead time as availability.yaml writes it, in minutes. */
export function reminderMinutes(text: string): number | undefined {
  const match = /^(\d{1,5})(m|h|d)$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * { m: 1, h: 60, d: 24 * 60 }[match[2] as 'm' | 'h' | 'd'];
}

/** The reminders of availability.yaml (checked by its schema), in minutes before the call. */
export const reminderLeads = (availability: { reminders: readonly string[] }): number[] =>
  availability.reminders.map((text) => reminderMinutes(text)!);

/**
 * How soon after a booking (or a move) a reminder must fall to be sent: one that would come sooner
 * is left out, as the confirmation (or the update) has just said the same.
 */
export const REMINDER_MIN_GAP_MS = 15 * 60_000;

/** A reminder to queue: its lead, in minutes, and when it is due (epoch ms). */
export interface DueReminder {
  minutes: number;
  dueAt: number;
}

/**
 * The reminders of a call starting at `start` (an ISO instant), booked or moved at `now`: each its
 * lead before the call, but for those that would fall within REMINDER_MIN_GAP_MS of now (or before
 * it): a reminder is never sent late.
 */
export function dueReminders(start: string, leads: readonly number[], now: number): DueReminder[] {
  const at = Date.parse(start);
  return leads
    .map((minutes) => ({ minutes, dueAt: at - minutes * 60_000 }))
    .filter(({ dueAt }) => dueAt >= now + REMINDER_MIN_GAP_MS);
}

/** Whether a reminder due now is no longer worth sending: its call (at `start`) has begun. */
export const callHasBegun = (start: string, now: number) => Date.parse(start) <= now;

/**
 * Whether `msBefore` a call falls inside its notice period (availability.yaml's `noticeHours`),
 * when a call can no longer be moved with its link: a move asked for then is refused, and a
 * reminder due then offers no change link (the page would only say it is too late).
 */
export const insideNotice = (msBefore: number, noticeHours: number) =>
  msBefore < noticeHours * 3_600_000;
