/**
 * A call's event as written into its host's calendar (src/server/mail/host-event.ts), read as a
 * calendar reads it (ical.js, which follows the VTIMEZONE): at the call's instant in winter and in
 * summer, on the host's clock, one event whatever the prospect typed, no METHOD nor attendees;
 * the host's own description kept in place of ours.
 */
import fc from 'fast-check';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import {
  hostCalendarEvent,
  withDescription,
  descriptionOf,
} from '../../src/server/mail/host-event';
import type { MailSetup } from '../../src/server/mail/mail-item';
import { booking, nasty, numRuns } from '../support/hostile-text';

const setup = (timeZone: string): MailSetup => ({
  from: 'site@agency.example',
  to: 'hello@agency.example',
  content: {
    brand: 'Agency',
    email: 'hello@agency.example',
    hosts: [{ id: 'anna', name: 'Anna', email: 'anna@agency.example', timeZone }],
  },
});

/** The events of a calendar text, as a calendar program reads them (its zones registered first). */
function eventsOf(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  return calendar.getAllSubcomponents('vevent').map((event) => new ICAL.Event(event));
}

describe("a call's event in its host's calendar", () => {
  it.each([
    ['America/New_York', '2027-01-12T15:00:00Z', '10:00'],
    ['America/New_York', '2027-07-13T14:00:00Z', '10:00'],
    ['Europe/London', '2027-03-29T09:00:00Z', '10:00'],
    ['Australia/Sydney', '2027-04-05T00:00:00Z', '10:00'],
    ['Asia/Kolkata', '2027-04-05T04:30:00Z', '10:00'],
  ])('in %s, at %s: on the host clock at %s, at the same instant', (zone, start, clock) => {
    const enquiry = booking('Ada', 'Hello');
    enquiry.call = {
      ...enquiry.call!,
      start,
      end: new Date(Date.parse(start) + 1_800_000).toISOString(),
    };
    const text = hostCalendarEvent(enquiry, setup(zone));
    const [event] = eventsOf(text);
    expect(event!.startDate.zone?.tzid).toBe(zone);
    expect(`${event!.startDate.hour}:${String(event!.startDate.minute).padStart(2, '0')}`).toBe(
      clock,
    );
    expect(event!.startDate.toUnixTime() * 1000).toBe(Date.parse(start));
    expect(event!.endDate.toUnixTime() * 1000 - Date.parse(start)).toBe(1_800_000);
  });

  it('is one event, with nothing a prospect typed as a line of its own', () => {
    fc.assert(
      fc.property(nasty, nasty, (name, message) => {
        const text = hostCalendarEvent(booking(name, message), setup('Europe/London'));
        const events = eventsOf(text);
        expect(events).toHaveLength(1);
        expect(text).not.toMatch(/^(METHOD|ATTENDEE|ORGANIZER|URL)[;:]/m);
        expect(events[0]!.component.getFirstPropertyValue('status')).toBe('TENTATIVE');
      }),
      { numRuns },
    );
  });

  it("keeps the host's own description, or none if they deleted it", () => {
    const ours = hostCalendarEvent(booking('Ada', 'Hello'), setup('Europe/London'));
    const kept = withDescription(ours, 'DESCRIPTION:Bring the budget\\, please');
    expect(descriptionOf(kept)).toBe('DESCRIPTION:Bring the budget\\, please');
    expect(eventsOf(kept)[0]!.description).toBe('Bring the budget, please');
    expect(descriptionOf(withDescription(ours, undefined))).toBeUndefined();
  });
});
