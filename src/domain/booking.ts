/**
 * Calls and their times, as both the phone and the server see them: a slot, the weekdays, whether a
 * time zone is known, and the schema of src/content/data/availability.yaml with the type it gives.
 * Working the free times out (Temporal) is the server's business: src/server/booking/free-times.ts.
 */
import { z } from 'astro/zod';
import { patterns } from './content-rules.ts';
import { isValidEmail } from './forms.ts';
import { reminderMinutes } from './reminders.ts';
import { isTimeZone, MONTH_NAMES } from './time-zone.ts';

export const weekdays = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type Weekday = (typeof weekdays)[number];

export interface Slot {
  /** ISO instant in UTC, e.g. '2026-12-01T09:30:00Z': the slot's name in forms and in the store. */
  start: string;
  end: string;
}

/** The calendar date after a date ('YYYY-MM-DD'); a calendar date has no zone, so UTC arithmetic is exact. */
export const dayAfter = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** Whether a value is a calendar date as forms and query strings write it: 'YYYY-MM-DD'. */
export const isCalendarDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The zone the agency's hours are in when availability.yaml names none. */
export const DEFAULT_TIME_ZONE = 'Europe/London';

// In a file of its own, which the server's calendar worker threads load without zod.
export { isTimeZone };

/** 'HH:MM-HH:MM', opening before closing, on a 24-hour clock. */
const openingRange = z
  .string()
  .regex(/^(?:[01]\d|2[0-3]):[0-5]\d-(?:[01]\d|2[0-3]):[0-5]\d$/, {
    message: 'must be opening and closing times on a 24-hour clock, like "09:30-12:30"',
  })
  .refine((range) => range.slice(0, 5) < range.slice(6), {
    message: 'must open before it closes, like "09:30-12:30"',
  });

/** A weekday's opening hours: up to 6 ranges that do not overlap (the editor checks them too). */
export const openingHours = z
  .array(openingRange)
  .max(6)
  .refine(
    (ranges) =>
      [...ranges]
        .sort()
        .every((range, i, sorted) => i === 0 || sorted[i - 1]!.slice(6) <= range.slice(0, 5)),
    { message: 'ranges must not overlap' },
  )
  .describe('Opening hours for calls that day, e.g. ["09:30-12:30", "13:30-17:00"]; [] for none.');

/** A week of opening hours, one list per weekday. */
export const weeklyHours = z.strictObject({
  monday: openingHours,
  tuesday: openingHours,
  wednesday: openingHours,
  thursday: openingHours,
  friday: openingHours,
  saturday: openingHours,
  sunday: openingHours,
});

/**
 * Why a 'YYYY-MM-DD' text is not a day: its form, or the day that does not exist, said as a person
 * reads a date ("30 February 2026 does not exist").
 */
export function dateProblem(text: string): string | undefined {
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!parts) return 'must be a date written like 2026-12-25 (year, month, day)';
  const [year, month, day] = parts.slice(1).map(Number) as [number, number, number];
  if (month < 1 || month > 12) return `has no month ${month}: the month comes second, 01 to 12`;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > days) return `${day} ${MONTH_NAMES[month - 1]} ${year} does not exist`;
  return undefined;
}

/** YAML reads an unquoted 2026-12-25 as a date: both forms are taken, as 'YYYY-MM-DD'. */
export const calendarDate = z.preprocess(
  (value) => (value instanceof Date ? value.toISOString().slice(0, 10) : value),
  z.string().superRefine((text, context) => {
    const problem = dateProblem(text);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  }),
);

/** The ranges of availability.yaml's numbers and texts, which the editor takes too. */
export const availabilityRanges = {
  callMinutes: { min: 10, max: 180 },
  bufferMinutes: { min: 0, max: 120 },
  noticeHours: { min: 0, max: 24 * 14 },
  daysAhead: { min: 1, max: 90 },
  callTitle: { min: 5, max: 80 },
  closedReason: { min: 0, max: 60 },
  hostId: { min: 2, max: 30 },
  hostName: { min: 2, max: 60 },
  hosts: { min: 1, max: 20 },
  location: { min: 0, max: 200 },
  meetingUrl: { min: 0, max: 300 },
  reminders: { min: 0, max: 4 },
  /** A reminder's lead time, in minutes: from 5 minutes to 14 days before the call. */
  reminderMinutes: { min: 5, max: 14 * 24 * 60 },
  /** How many times a prospect may move one call. */
  moves: { min: 0, max: 3 },
} as const;
const limits = availabilityRanges;
const wholeIn = ({ min, max }: { min: number; max: number }) => z.number().int().min(min).max(max);

/** A person who takes calls. Their calendars' addresses are secrets: CALENDAR_FEEDS, not here. */
export const hostFields = {
  id: z
    .string()
    .min(limits.hostId.min)
    .max(limits.hostId.max)
    .regex(patterns.id.regex, { message: patterns.id.message })
    .describe('A short name for the host, used in CALENDAR_FEEDS ("anna=https://…"), e.g. "anna".'),
  name: z
    .string()
    .min(limits.hostName.min)
    .max(limits.hostName.max)
    .describe('The name the prospect sees in the invitation, e.g. "Anna Reid".'),
  email: z
    .string()
    .refine(isValidEmail, { message: 'must be an e-mail address such as anna@agency.example' })
    .describe('Where the host gets the invitation to each call they take.'),
  hours: weeklyHours
    .optional()
    .describe("The host's own weekly hours for calls; left out, the entry's hours."),
  timeZone: z
    .string()
    .refine(isTimeZone, { message: 'must be a time zone name such as "America/New_York"' })
    .optional()
    .describe(
      "The host's own time zone, for their hours and their calendar's all-day events; left out, the entry's.",
    ),
  meetingUrl: z
    .string()
    .superRefine((text, context) => {
      const problem = meetingUrlProblem(text);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    })
    .optional()
    .describe(
      "The host's own video room, the same for every call (https), e.g. https://meet.example.com/anna: in the invitation, the e-mails and the reminders; empty for the entry's location.",
    ),
};

/** A video room's address as the invitations carry it: https, nothing a calendar could misread. */
export function meetingUrlProblem(text: string): string | undefined {
  if (text === '') return undefined;
  if (text.length > limits.meetingUrl.max)
    return `must be at most ${limits.meetingUrl.max} characters`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be a web address such as https://meet.example.com/anna';
  }
  if (url.protocol !== 'https:') return 'must start with https://';
  if (url.username || url.password) return 'must not hold a user name or password';
  if (/[\s<>"\\^`{|}]/.test(text)) return 'must not hold spaces or any of < > " \\ ^ ` { | }';
  return undefined;
}

export const hostSchema = z.strictObject(hostFields);
export type Host = z.output<typeof hostSchema>;

/** The hosts' ids, each once: CALENDAR_FEEDS and the bookings name a host by it. */
const hostList = z
  .array(hostSchema)
  .min(limits.hosts.min)
  .max(limits.hosts.max)
  .superRefine((hosts, context) => {
    const seen = new Set<string>();
    hosts.forEach((host, index) => {
      if (seen.has(host.id))
        context.addIssue({
          code: 'custom',
          path: [index, 'id'],
          message: `"${host.id}" is the id of another host: each host needs its own`,
        });
      seen.add(host.id);
    });
  })
  .describe('The people who take calls: a time is offered while one of them is free.');

/** The fields of availability.yaml: when calls can be booked. */
export const availabilityFields = {
  timeZone: z
    .string()
    .refine(isTimeZone, { message: 'must be a time zone name such as "Europe/London"' })
    .default(DEFAULT_TIME_ZONE)
    .describe('The time zone the opening hours are in, e.g. "Europe/London".'),
  callMinutes: wholeIn(limits.callMinutes).default(30).describe('How long a call lasts.'),
  bufferMinutes: wholeIn(limits.bufferMinutes)
    .default(0)
    .describe('Free minutes kept after each call before the next one can start.'),
  noticeHours: wholeIn(limits.noticeHours)
    .default(24)
    .describe('How long before a call it can be booked at the latest, in hours.'),
  daysAhead: wholeIn(limits.daysAhead)
    .default(21)
    .describe('How many days ahead calls are offered.'),
  callTitle: z
    .string()
    .min(limits.callTitle.min)
    .max(limits.callTitle.max)
    .describe('The calendar invitation title, e.g. "Introductory call with Northgate Digital".'),
  hours: weeklyHours.describe('Weekly opening hours for calls, one list per weekday.'),
  closed: z
    .array(
      z.strictObject({
        date: calendarDate.describe('A day with no calls, e.g. 2026-12-25.'),
        reason: z
          .string()
          .max(limits.closedReason.max)
          .optional()
          .describe('Why, for the staff: "Christmas Day".'),
      }),
    )
    .default([])
    .describe('Dates with no calls (bank holidays, office closures).'),
  hosts: hostList,
  location: z
    .string()
    .max(limits.location.max)
    .optional()
    .describe(
      'Where calls take place when the host has no video room of their own: a phone number or a room, e.g. "+44 20 7946 0000 (call us at the time of the call)"; empty: the e-mails say we will send how to join.',
    ),
  reminders: z
    .array(
      z.string().superRefine((text, context) => {
        const minutes = reminderMinutes(text);
        if (minutes === undefined)
          context.addIssue({
            code: 'custom',
            message: 'must be a number and m, h or d, like "24h", "90m" or "2d"',
          });
        else if (minutes < limits.reminderMinutes.min || minutes > limits.reminderMinutes.max)
          context.addIssue({ code: 'custom', message: 'must be from 5m to 14d before the call' });
      }),
    )
    .max(limits.reminders.max)
    .superRefine((texts, context) => {
      const seen = new Set<number | undefined>();
      texts.forEach((text, index) => {
        const minutes = reminderMinutes(text);
        if (minutes !== undefined && seen.has(minutes))
          context.addIssue({
            code: 'custom',
            path: [index],
            message: 'is the same time as another reminder',
          });
        seen.add(minutes);
      });
    })
    .default(['24h', '1h'])
    .describe(
      'When the prospect and the host are e-mailed a reminder of a call, before it: e.g. ["24h", "1h"]; [] for none.',
    ),
};

export const availabilitySchema = z.strictObject(availabilityFields);

/** availability.yaml as its schema gives it to the code (defaults filled in). */
export type Availability = z.output<typeof availabilitySchema>;
