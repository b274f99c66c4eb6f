/** The e-mails the outbox sends: their text, their headers, and the back-off between attempts. */
import { describe, expect, it } from 'vitest';
import { backoffMs, formatEnquiryMail, oneLine } from '../../src/server/mail';
import type { StoredEnquiry } from '../../src/server/store';
import { enquiry } from '../store-backends';

const { call: _none, ...fields } = enquiry();
const storedEnquiry = (overrides: Partial<StoredEnquiry> = {}): StoredEnquiry => ({
  ...fields,
  id: '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b',
  createdAt: '2026-11-23T10:00:00.000Z',
  mailedAt: null,
  mailAttempts: 0,
  ...overrides,
});

describe('the e-mail', () => {
  it('is plain text with every field, and a reply-to of the visitor', () => {
    const stored = storedEnquiry();
    const mail = formatEnquiryMail(stored, 'site@agency.example', 'sales@agency.example');
    expect(mail.subject).toBe('Enquiry from Grace Hopper: Web Development, Technical Consultancy');
    expect(mail.replyTo).toBe('grace@example.com');
    expect(mail.text).toContain('Phone: +44 20 7946 0958');
    expect(mail.text).toContain('Services: Web Development, Technical Consultancy');
    expect(mail.text).toContain('A booking platform.');
    expect(mail.text).toContain(`Reference: ${stored.id}`);
    expect(mail.messageId).toBe(`<${stored.id}@enquiries.invalid>`);
  });

  it('cannot be given extra headers through a field', () => {
    const stored = storedEnquiry({
      name: 'Eve\r\nBcc: victim@example.com',
      email: 'eve@example.com\r\nX-Injected: 1',
    });
    const mail = formatEnquiryMail(stored, 'a@b.co', 'c@d.co');
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.replyTo).not.toMatch(/[\r\n]/);
    expect(oneLine('a\r\nb\u0000c')).toBe('a b c');
  });

  it('backs off from 5 s, doubling, to at most 15 minutes', () => {
    const mid = () => 0.5;
    expect(backoffMs(0, 5000, mid)).toBe(5000);
    expect(backoffMs(3, 5000, mid)).toBe(40_000);
    expect(backoffMs(20, 5000, mid)).toBe(15 * 60_000);
    expect(backoffMs(0, 5000, () => 0)).toBe(4000);
  });
});
