/**
 * Who the staff are and what proves it, without a server: members from the hosts and STAFF_EMAILS,
 * a link's token (its id signed: a changed id, signature or secret signs no one in), and the
 * session cookie (`__Host-` and Secure on https, HttpOnly and SameSite=Lax always).
 */
import { describe, expect, it } from 'vitest';
import {
  cookieToken,
  isEditor,
  linkId,
  linkToken,
  newLink,
  sessionCookie,
  staffMembers,
} from '../../src/server/staff/access';
import { LINK_TTL_MS, nextLinkExpiry } from '../../src/server/staff/links';

describe('staff access', () => {
  it('members are the hosts, in their zones, and STAFF_EMAILS, by address in lower case', () => {
    const members = staffMembers(
      [{ id: 'anna', name: 'Anna Reid', email: 'Anna@A.example', timeZone: 'Europe/Paris' }],
      [' Office@A.example ', '', 'anna@a.example'],
      'Europe/London',
    );
    expect([...members.keys()]).toEqual(['anna@a.example', 'office@a.example']);
    expect(members.get('anna@a.example')).toMatchObject({
      hostId: 'anna',
      timeZone: 'Europe/Paris',
    });
    expect(members.get('office@a.example')).toMatchObject({ timeZone: 'Europe/London' });
  });

  it('editors are STAFF_EDITORS alone, members whether or not STAFF_EMAILS lists them', () => {
    const members = staffMembers(
      [{ id: 'anna', name: 'Anna Reid', email: 'anna@a.example' }],
      ['office@a.example'],
      'Europe/London',
      [' Erin@A.example', 'anna@a.example'],
    );
    expect([...members.keys()]).toEqual(['anna@a.example', 'office@a.example', 'erin@a.example']);
    expect(isEditor(members.get('erin@a.example'))).toBe(true);
    expect(members.get('anna@a.example')).toMatchObject({ hostId: 'anna', name: 'Anna Reid' });
    expect(isEditor(members.get('anna@a.example'))).toBe(true);
    expect(isEditor(members.get('office@a.example'))).toBe(false);
    expect(isEditor(undefined)).toBe(false);
  });

  it('a link’s token is its id signed: changed in any part, it names no link', () => {
    const secret = 'a'.repeat(64);
    const { id, token } = newLink(secret);
    expect(linkId(secret, token)).toBe(id);
    expect(token).toBe(linkToken(secret, id));
    expect(linkId('b'.repeat(64), token)).toBeUndefined();
    expect(linkId(secret, `x${token}`)).toBeUndefined();
    expect(linkId(secret, `${token}x`)).toBeUndefined();
    expect(linkId(secret, `${token}.more`)).toBeUndefined();
    expect(linkId(secret, id)).toBeUndefined();
    expect(linkId(secret, '')).toBeUndefined();
  });

  it('the session cookie is __Host- and Secure on https, HttpOnly and Lax always, and read back', () => {
    expect(sessionCookie(true, 'tok')).toBe(
      '__Host-staff=tok; Max-Age=43200; Path=/; HttpOnly; SameSite=Lax; Secure',
    );
    expect(sessionCookie(false, undefined)).toBe(
      'staff=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax',
    );
    const request = (cookie: string) => new Request('http://a.example/', { headers: { cookie } });
    expect(cookieToken(request('a=1; __Host-staff=tok; b=2'), true)).toBe('tok');
    // On https, a cookie without the prefix (one a sibling host could set) is not the session's.
    expect(cookieToken(request('staff=tok'), true)).toBeUndefined();
    expect(cookieToken(request('staff=tok'), false)).toBe('tok');
  });

  it('a new sign-in link only when none works, at most 4 an hour, the hour’s last until the next may go', () => {
    const minute = 60_000;
    const sent = (minutesAgo: number, used = false, lasts = 15) => ({
      seq: 0,
      createdAt: -minutesAgo * minute,
      expiresAt: (lasts - minutesAgo) * minute,
      usedAt: used ? 0 : null,
    });
    expect(nextLinkExpiry([], 0)).toBe(LINK_TTL_MS);
    // One sent 10 minutes ago still works: no e-mail.
    expect(nextLinkExpiry([sent(10)], 0)).toBeUndefined();
    expect(nextLinkExpiry([sent(10, true)], 0)).toBe(LINK_TTL_MS);
    expect(nextLinkExpiry([sent(15)], 0)).toBe(LINK_TTL_MS);
    // The hour's fourth lasts until the first is an hour old.
    expect(nextLinkExpiry([sent(1, true), sent(2, true), sent(20, true)], 0)).toBe(40 * minute);
    expect(nextLinkExpiry([sent(15), sent(30), sent(45)], 0)).toBe(LINK_TTL_MS);
    expect(nextLinkExpiry([sent(1, true), sent(2, true), sent(3, true), sent(4, true)], 0)).toBe(
      undefined,
    );
    // The first an hour old: it no longer counts, and the new one is the hour's fourth.
    expect(nextLinkExpiry([sent(1, true), sent(2, true), sent(3, true), sent(60, true)], 0)).toBe(
      57 * minute,
    );
  });
});
