/**
 * When prospects can book a call: src/content/data/availability.yaml, one entry (`id: calls`). The
 * server reads the file too, so each field's rule is the domain's (src/domain/booking.ts, `schema`);
 * declared here are its kind for the editor and its words.
 */
import { patterns } from '../domain/content-rules.ts';
import {
  availabilityFields,
  availabilityRanges,
  calendarDate,
  hostFields,
  isTimeZone,
  meetingUrlProblem,
  openingHours,
  weekdays,
} from '../domain/booking.ts';
import { isValidEmail } from '../domain/forms.ts';
import { listFile } from './collections.ts';
import { checked, date, group, integer, line, list, text, uniqueId, week } from './fields.ts';

const ranges = availabilityRanges;

/** A time zone's name, empty for the one the site falls back on. */
const timeZoneProblem = (name: string) =>
  isTimeZone(name) ? undefined : `"${name}" is not a time zone name such as "Europe/London"`;

const hours = { days: weekdays, day: openingHours } as const;

const host = group({
  fields: {
    id: uniqueId({
      label: 'Id',
      rule: patterns.id,
      span: ranges.hostId,
      hint: hostFields.id.description!,
      about:
        "Each host's own: the name `CALENDAR_FEEDS` and the staff listing use for the host, e.g. `anna`. Changing it later leaves the calls already booked under the old id.",
    }),
    name: text({
      label: 'Name',
      span: ranges.hostName,
      about: 'The host\'s name, as prospects see it in the invitation: "Anna Reid".',
    }),
    email: checked({
      label: 'E-mail',
      problem: (text) =>
        isValidEmail(text)
          ? undefined
          : `"${text}" is not an e-mail address such as anna@agency.example`,
      expects: 'an e-mail address',
      hint: hostFields.email.description!,
    }),
    hours: week({
      ...hours,
      label: 'Own weekly hours',
      optional: true,
      schema: hostFields.hours,
      hint: "Ticked: the host's own hours for calls, a line a day. Unticked: the entry's hours.",
      about:
        "The host's own week, the same shape as `hours`; left out, the entry's `hours`. In the editor: tick **Own weekly hours**, then one line per day.",
    }),
    timeZone: checked({
      label: 'Own time zone',
      problem: timeZoneProblem,
      expects: 'a time zone name',
      optional: true,
      hint: "The host's own zone (\"America/New_York\"), for their hours and their calendar's all-day events; empty for the entry's.",
      about:
        "The host's own zone, e.g. `America/New_York`: their `hours` are in it, and so are their calendar's all-day events. Left out, the entry's `timeZone`.",
    }),
    meetingUrl: checked({
      label: 'Video room',
      problem: meetingUrlProblem,
      expects: 'a web address',
      optional: true,
      hint: hostFields.meetingUrl.description!,
      about:
        "The host's own video room, starting `https://`, up to 300 characters, the same for every call (a fixed Google Meet, Zoom or Teams link): where their calls take place, in the invitation (its location), the e-mails, the booked page and the reminders. Left out, the entry's `location`.",
    }),
  },
});

export const availability = listFile({
  label: 'Availability',
  file: 'src/content/data/availability.yaml',
  itemLabel: () => 'Calls',
  fields: {
    timeZone: checked({
      label: 'Time zone',
      problem: timeZoneProblem,
      expects: 'a time zone name',
      optional: true,
      schema: availabilityFields.timeZone,
      hint: 'The zone the hours are in, as the time zone database names it ("Europe/London"); empty for Europe/London.',
      about:
        'The zone the opening hours are in, as the time zone database names it ("Europe/London", "Europe/Berlin").',
    }),
    callMinutes: integer({
      label: 'Call minutes',
      range: ranges.callMinutes,
      schema: availabilityFields.callMinutes,
      about: 'How long a call lasts.',
    }),
    bufferMinutes: integer({
      label: 'Buffer minutes',
      range: ranges.bufferMinutes,
      schema: availabilityFields.bufferMinutes,
      about: 'Free minutes kept after each call before the next can start.',
    }),
    noticeHours: integer({
      label: 'Notice hours',
      range: ranges.noticeHours,
      schema: availabilityFields.noticeHours,
      about:
        'How far ahead a call must be booked: with 24, the earliest time offered is a day from now.',
    }),
    daysAhead: integer({
      label: 'Days ahead',
      range: ranges.daysAhead,
      schema: availabilityFields.daysAhead,
      about: 'How many days ahead calls are offered.',
    }),
    callTitle: text({
      label: 'Call title',
      span: ranges.callTitle,
      schema: availabilityFields.callTitle,
      about:
        'The title of the calendar invitation, e.g. "Introductory call with Northgate Digital".',
    }),
    hours: week({
      ...hours,
      label: 'Opening hours',
      schema: availabilityFields.hours,
      about:
        "The opening hours for calls on each weekday, on a 24-hour clock, up to 6 a day, e.g. `['09:30-12:30', '13:30-17:00']` (quote them when you write them this way by hand). Each must open before it closes; they must not overlap. In the editor a day's hours are one line: `09:30-12:30, 13:30-17:00`.",
    }),
    closed: list({
      label: 'Closed dates',
      schema: availabilityFields.closed,
      itemLabel: (day) => day.date,
      about: 'Days with no calls: bank holidays, office closures.',
      of: group({
        fields: {
          date: date({
            label: 'Date',
            schema: calendarDate,
            hint: 'A day with no calls, e.g. 2026-12-25.',
            about: "The day, e.g. `'2026-12-25'`.",
          }),
          reason: text({
            label: 'Reason',
            span: ranges.closedReason,
            optional: true,
            hint: 'Why, for the staff: "Christmas Day".',
          }),
        },
      }),
    }),
    hosts: list({
      label: 'Hosts',
      of: host,
      count: ranges.hosts,
      schema: availabilityFields.hosts,
      itemLabel: (host) => host.name,
      hint: 'The people who take calls: a time is offered while one of them is free.',
      about:
        "The people who take calls. A time is offered while at least one of them is free in their hours and in their own calendar; a booking goes to the free host with the fewest calls booked ahead (the first in this list on a tie), who gets the invitation. Their calendars' secret addresses are not written here: they are set on the server (`CALENDAR_FEEDS`, see the README).",
    }),
    location: text({
      label: 'Location',
      span: ranges.location,
      optional: true,
      schema: availabilityFields.location,
      hint: availabilityFields.location.description!,
      about:
        'Where calls take place when the host has no video room: a phone number or a room, e.g. "+44 20 7946 0000 (call us at the time of the call)". Left out (and no video room), the e-mails say that we will reply with how to join.',
    }),
    reminders: line({
      label: 'Reminders',
      schema: availabilityFields.reminders,
      expects: 'lead times like "24h"',
      count: ranges.reminders,
      item: 'lead times, each a number and `m`, `h` or `d` (`90m`, `24h`, `2d`), from `5m` to `14d`, each once',
      hint: 'Before each call, comma-separated: a number and m, h or d ("24h, 1h"); empty for none.',
      about:
        "How long before each call the prospect and the host are e-mailed a reminder; `[]` for none. A call booked (or moved) closer than a reminder's lead (or within 15 minutes of it) gets no such reminder. In the editor they are one line: `24h, 1h`.",
    }),
  },
});
