/**
 * What a stranger can make the built server do with what they type: the text that reaches the
 * e-mails, the calendar invitations, the staff CLI and its CSV; bookings caught as spam; addresses
 * the mail path cannot take; mail that can never be delivered; and one address booking every time.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { calendarOf, mimeParts, textOf } from '../support/mime';
import { postForm, validEnquiry, type RunningServer } from '../support/server';
import { book, freeSlots } from './calls';
import { stoppedAfterEach } from './stopped-after-each';
import type { SmtpOptions } from '../../scripts/smtp';

const servers = stoppedAfterEach({ BOOKING_SECRET: 'abuse-secret-0123456789abcdef0123456789' });
const run = promisify(execFile);

/** With mail, retried every 100 ms: a mail given up is seen not to be asked again. */
const startWithMail = (env: Record<string, string> = {}, smtpOptions: SmtpOptions = {}) =>
  servers.startWithMail({ JOBS_RETRY_BASE_MS: '100', ...env }, smtpOptions);

/** The free times a prospect is offered now. */
const freeTimes = async (server: RunningServer) => (await freeSlots(server)).slots;

/** The events of an invitation, parsed as a calendar program parses it. */
const events = (ics: string) =>
  new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent') as ICAL.Component[];

/** Every control character but the line breaks a listing is made of. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const enquiriesCli = (database: string, ...args: string[]) =>
  run(process.execPath, ['src/server/cli.ts', ...args], {
    env: { ...process.env, ENQUIRY_DB: database, DATABASE_URL: '' },
  });

describe('text a visitor writes', () => {
  it('cannot add an event to the invitations with bare CRs, nor reach the prospect', async () => {
    const { server, mails } = await startWithMail();
    const [slot] = await freeTimes(server);
    const attack =
      'Hi\rEND:VEVENT\rBEGIN:VEVENT\rUID:evil-1@evil.example\rSUMMARY:Urgent\rURL:https://evil.example/meet\rDTSTART:20270101T100000Z\rDTEND:20270101T110000Z\rEND:VEVENT\rBEGIN:VEVENT\rX:';
    const response = await book(server, slot!.start, {
      message: attack,
      name: 'Ada\r\nBcc: victim@example.com',
    });
    expect(response.status).toBe(200);
    await expect.poll(() => mails.length).toBe(3);
    const agency = mails.find((m) => m.to.includes('sales@agency.example'))!;
    const prospect = mails.find((m) => m.to.includes('ada@example.com'))!;
    for (const mail of [agency, prospect]) {
      const ics = calendarOf(mail.raw)!;
      const [event, ...more] = events(ics);
      expect(more).toEqual([]);
      expect(event!.getFirstPropertyValue('url')).toBeNull();
      expect(ics).not.toContain('evil.example/meet\r\n');
      // The envelope and the headers are the server's: no Bcc, no other recipient.
      expect(mail.to).toHaveLength(1);
      const { message } = mimeParts(mail.raw);
      expect(message.headers.bcc).toBeUndefined();
    }
    // The agency reads the message, line breaks and all, as text of its one event.
    const [agencyEvent] = events(calendarOf(agency.raw)!);
    // (then where to meet, from availability.yaml, and the desk's page of the call)
    const agencyDescription = String(agencyEvent!.getFirstPropertyValue('description'));
    expect(agencyDescription.slice(0, attack.length)).toBe(attack.replaceAll('\r', '\n'));
    expect(agencyDescription.slice(attack.length)).toMatch(
      /^\n\nWhere: [^\n]+\n\nMove or cancel the call on the desk: http:\/\/[^\s]+\/staff\?call=[\w-]+$/,
    );
    // Its title names the prospect, on one line.
    expect(agencyEvent!.getFirstPropertyValue('summary')).toBe(
      'Call with Ada Bcc: victim@example.com',
    );
    expect(textOf(agency.raw)).toContain('URL:https://evil.example/meet');
    // The prospect's copy carries no free text but their name (its description is where to meet,
    // the agency's own words): the form relays nothing.
    const [prospectEvent] = events(calendarOf(prospect.raw)!);
    expect(prospectEvent!.getFirstPropertyValue('description')).toMatch(/^Where: [^\n]+$/);
    expect(prospect.raw).not.toContain('evil.example');
    expect(textOf(prospect.raw)).not.toContain('clinics');
  });

  it('reaches the staff CLI and its CSV without a single control character', async () => {
    const server = await servers.start();
    const name = 'Eve\u001b[2J\u001b]52;c;ZXZpbA==\u0007\u009b31m\u202eevil';
    const project = 'Line one\r\nline two\u0085three\u2028four\ttab\u0000nul';
    const response = await postForm(`${server.url}/php/email.php`, {
      ...validEnquiry,
      first_name: name,
      project,
    });
    expect(response.status).toBe(200);
    const listing = (await enquiriesCli(server.database)).stdout;
    expect(listing).toContain('Eve');
    expect(listing).not.toMatch(CONTROL);
    const csv = (await enquiriesCli(server.database, '--csv')).stdout;
    expect(csv).toContain('Eve');
    expect(csv.replaceAll('\r\n', '').replaceAll('\n', '')).not.toMatch(CONTROL);
  });
});

describe('spam', () => {
  it('a booking caught by the honeypot takes no time: the next prospect books it', async () => {
    const { server, mails } = await startWithMail();
    const [slot] = await freeTimes(server);
    const spam = await book(server, slot!.start, { fax_number: 'http://spam.example' });
    expect(spam.status).toBe(200);
    expect((await freeTimes(server)).map((s) => s.start)).toContain(slot!.start);
    const real = await book(server, slot!.start, { email: 'grace@example.com' });
    expect(real.status).toBe(200);
    await expect.poll(() => mails.length).toBe(3);
    expect(mails.every((m) => !m.raw.includes('spam.example'))).toBe(true);
    // Kept for review as spam, without a time.
    const { stdout } = await enquiriesCli(server.database, '--spam', '--csv');
    expect(stdout.split('\r\n').filter((line) => line.includes('spam')).length).toBe(1);
  });
});

describe('e-mail addresses', () => {
  it('one the mail path cannot send to is refused at the form, and nothing is stored', async () => {
    const server = await servers.start();
    const [slot] = await freeTimes(server);
    for (const email of ['josé@example.com', '"x"@example.com', 'a,b@example.com', '<a@b.co>']) {
      const response = await book(server, slot!.start, { email });
      expect(response.status, email).toBe(422);
      const { errors } = (await response.json()) as { errors: { email?: string } };
      expect(errors.email, email).toBeTruthy();
      const enquiry = await postForm(`${server.url}/php/email.php`, { ...validEnquiry, email });
      expect(enquiry.status, email).toBe(422);
    }
    const { stdout } = await enquiriesCli(server.database);
    expect(stdout).toContain('No enquiries stored.');
  });

  it('an internationalised domain is mailed, as punycode, with the invitation', async () => {
    const { server, mails } = await startWithMail();
    const [slot] = await freeTimes(server);
    expect((await book(server, slot!.start, { email: 'user@bücher.de' })).status).toBe(200);
    await expect.poll(() => mails.length).toBe(3);
    // The test server shows the envelope's domain decoded; the message says what was sent.
    const prospect = mails.find((m) => m.to.includes('user@bücher.de'));
    expect(mimeParts(prospect!.raw).message.headers.to).toBe('user@xn--bcher-kva.de');
    const [event] = events(calendarOf(prospect!.raw)!);
    expect(String(event!.getFirstPropertyValue('attendee'))).toBe('mailto:user@xn--bcher-kva.de');
  });

  it('a mail refused for good is not retried, is counted in /healthz and named by the CLI', async () => {
    const asked: string[] = [];
    const { server, mails } = await startWithMail(
      {},
      { asked, refuses: (address) => address.startsWith('nobody@') },
    );
    const [slot] = await freeTimes(server);
    expect((await book(server, slot!.start, { email: 'nobody@example.com' })).status).toBe(200);
    await expect.poll(() => mails.length).toBe(2);
    await expect
      .poll(async () => (await (await fetch(`${server.url}/healthz`)).json()).jobs)
      .toEqual({ failed: 1 });
    // By its older name too, for a monitor that reads it.
    expect((await (await fetch(`${server.url}/healthz`)).json()).mail).toEqual({
      undeliverable: 1,
    });
    // With retries every 100 ms, another second would have asked again many times.
    await new Promise((r) => setTimeout(r, 1500));
    expect(asked.filter((a) => a === 'nobody@example.com')).toHaveLength(1);
    expect(server.output()).toMatch(/nobody|prospect[^\n]*550/);
    expect(server.output()).not.toContain('[object Error]');
    const { stdout } = await enquiriesCli(server.database);
    expect(stdout).toMatch(/not delivered[^\n]*550/i);
  });
});

describe('booking abuse', () => {
  it('one e-mail address, or one client, books at most two future calls', async () => {
    const server = await servers.start({ BOOKING_CAP: '2' });
    const slots = await freeTimes(server);
    expect((await book(server, slots[0]!.start)).status).toBe(200);
    expect((await book(server, slots[2]!.start, { email: 'ADA@example.com' })).status).toBe(200);
    const third = await book(server, slots[4]!.start);
    expect(third.status).toBe(422);
    const { errors } = (await third.json()) as { errors: { slot: string } };
    expect(errors.slot).toMatch(/2 calls/);
    // Another address from the same client: the client's cap.
    const other = await book(server, slots[6]!.start, { email: 'someone@example.com' });
    expect(other.status).toBe(422);
    // The time it asked for stays free.
    expect((await freeTimes(server)).map((s) => s.start)).toContain(slots[4]!.start);
    // A call request without a time still goes through.
    expect((await book(server, '')).status).toBe(200);
  });
});

describe('a fresh clone', () => {
  it('books calls without BOOKING_SECRET, and its cancel links survive a restart', async () => {
    const { server, mails } = await startWithMail({ BOOKING_SECRET: '' });
    const [slot] = await freeTimes(server);
    expect((await book(server, slot!.start)).status).toBe(200);
    await expect.poll(() => mails.length).toBe(3);
    const prospect = mails.find((m) => m.to.includes('ada@example.com'))!;
    const link = /http:\/\/127\.0\.0\.1:\d+(\/schedule\/cancel\?token=[\w.-]+)/.exec(
      textOf(prospect.raw)!,
    )![1]!;
    await server.stop();
    const again = await servers.start({
      BOOKING_SECRET: '',
      ENQUIRY_DB: server.database,
    });
    const confirm = await fetch(`${again.url}${link}`);
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain('Cancel the call');
  });
});
