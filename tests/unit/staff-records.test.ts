/**
 * What the desk's actions leave behind and where they lead: the audit line's words (the member's
 * change, the prospect's name, a move's old and new times, the reason), kept to one line whatever
 * was typed; and the address a member lands on after an action, with what it is said at.
 */
import { describe, expect, it } from 'vitest';
import {
  cancelDetail,
  deskChange,
  enquiryDetail,
  moveDetail,
} from '../../src/server/staff/records';
import { doneAt, doneMessage, landing } from '../../src/server/staff/landing';

const anna = {
  email: 'anna@northgate-digital.example',
  name: 'Anna Reid',
  timeZone: 'Europe/London',
};
const office = {
  email: 'office@northgate-digital.example',
  name: 'office@northgate-digital.example',
  timeZone: 'Europe/London',
};

describe('the audit line of a desk action', () => {
  it('names the prospect, and for a move its old and new times in the member’s zone, and why', () => {
    expect(
      moveDetail(
        'Zelda Prospect',
        { start: '2026-12-01T10:00:00Z' },
        { start: '2026-12-02T15:30:00Z' },
        'Europe/London',
        'Anna is ill',
      ),
    ).toBe(
      'Zelda Prospect, from Tuesday, 1 December 2026, 10:00 UK time to Wednesday, 2 December 2026, 15:30 UK time; reason: Anna is ill',
    );
    expect(
      cancelDetail('Zelda Prospect', { start: '2026-12-01T10:00:00Z' }, 'America/New_York'),
    ).toBe('Zelda Prospect, Tuesday, 1 December 2026, 05:00 Eastern Time');
    expect(enquiryDetail('Zelda Prospect')).toBe('Zelda Prospect');
  });

  it('keeps what was typed to one line: no line break, control or bidi character', () => {
    const hostile = 'Zelda\r\n2026-12-01: office signed out\u202e\u0000';
    const line = cancelDetail(
      hostile,
      { start: '2026-12-01T10:00:00Z' },
      'UTC',
      `x\r\ny${'z'.repeat(400)}`,
    );
    expect(line).not.toMatch(/[\r\n\u0000\u202e]/);
    expect(line).toMatch(/^Zelda 2026-12-01: office signed out, /);
    expect(line.length).toBeLessThan(500);
  });
});

describe('the change a member makes, for its e-mails', () => {
  it('names the member by name, else by address, with the reason on one line', () => {
    expect(deskChange(anna, ' Sorry\r\nBcc: x@evil.example ')).toEqual({
      by: 'staff',
      who: 'Anna Reid',
      reason: 'Sorry Bcc: x@evil.example',
    });
    expect(deskChange(office, '')).toEqual({ by: 'staff', who: office.email });
  });
});

describe('where a member lands after an action', () => {
  const at = (search: string) => new URL(`https://desk.example/staff${search}`);

  it('at the item, the desk’s view kept; a refused time back at the times; a cancel asked first', () => {
    expect(landing(at('?state=upcoming&call=c1&day=2026-12-01'), 'moved', 'c1')).toBe(
      '/staff?state=upcoming&done=moved&at=enquiry-c1#enquiry-c1',
    );
    expect(landing(at('?state=new&q=grace&from=2026-12-01'), 'handled', 'e1')).toBe(
      '/staff?state=new&q=grace&from=2026-12-01&done=handled&at=enquiry-e1#enquiry-e1',
    );
    expect(landing(at(''), 'cancelled', 'c1')).toBe(
      '/staff?done=cancelled&at=enquiry-c1#enquiry-c1',
    );
    expect(landing(at(''), 'taken', 'c1')).toBe(
      '/staff?call=c1&done=taken&at=change-title#change-title',
    );
    expect(landing(at(''), 'already-cancelled', 'c1')).toBe('/staff?done=already-cancelled#done');
    // Whatever an id holds, the address stays one line of one address.
    expect(landing(at('?done=moved'), undefined, 'c 1&x\r\n', 'cancel')).toBe(
      '/staff?call=c+1%26x%0D%0A&step=cancel#cancel-title',
    );
    expect(landing(at(''), 'handled', 'e\r\nSet-Cookie: x')).toBe(
      '/staff?done=handled&at=enquiry-e%0D%0ASet-Cookie%3A+x#enquiry-e%0D%0ASet-Cookie%3A%20x',
    );
  });

  it('says the outcome at an item only if the page shows it, and only in its own words', () => {
    expect(doneAt(at('?at=enquiry-c1'), ['enquiry-c1'])).toBe('enquiry-c1');
    expect(doneAt(at('?at=enquiry-c2'), ['enquiry-c1'])).toBeUndefined();
    expect(doneMessage('handled')).toBe('Marked handled.');
    expect(doneMessage('__proto__')).toBeUndefined();
    expect(doneMessage('<b>')).toBeUndefined();
  });
});
