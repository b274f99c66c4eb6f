import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Outbox, backoffMs, formatEnquiryMail, oneLine, type Mail } from '../../src/server/mail';
import { EnquiryStore, migrations, type NewEnquiry } from '../../src/server/store';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'store-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const enquiry = (overrides: Partial<NewEnquiry> = {}): NewEnquiry => ({
  kind: 'enquiry',
  name: 'Grace Hopper',
  email: 'grace@example.com',
  data: {
    first_name: 'Grace',
    last_name: 'Hopper',
    email: 'grace@example.com',
    contact: '+44 20 7946 0958',
    service: ['Web Development', 'Technical Consultancy'],
    project: 'A booking platform.',
  },
  clientIp: '127.0.0.1',
  userAgent: 'test',
  spam: false,
  ...overrides,
});

describe('the enquiry store', () => {
  it('creates its schema by versioned migrations, in WAL mode', () => {
    const path = join(dir, 'nested', 'e.sqlite');
    new EnquiryStore(path).close();
    const db = new DatabaseSync(path);
    expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: migrations.length });
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    db.close();
    // Opening again runs nothing twice.
    const again = new EnquiryStore(path);
    expect(again.count()).toBe(0);
    again.close();
  });

  it('keeps what it stored across a reopen, and queues mail for all but spam', () => {
    const path = join(dir, 'e.sqlite');
    const store = new EnquiryStore(path);
    const kept = store.add(enquiry(), true);
    store.add(enquiry({ spam: true }), true);
    store.add(
      enquiry({ kind: 'call', data: { name: 'Ada', email: 'a@b.co', message: 'Hi' } }),
      false,
    );
    expect(store.due().map((item) => item.enquiry.id)).toEqual([kept.id]);
    store.close();
    const reopened = new EnquiryStore(path);
    const all = reopened.all();
    expect(all).toHaveLength(3);
    expect(all[0]).toMatchObject({
      id: kept.id,
      name: 'Grace Hopper',
      spam: false,
      mailedAt: null,
    });
    expect(all[0]!.data.service).toEqual(['Web Development', 'Technical Consultancy']);
    expect(all[1]!.spam).toBe(true);
    reopened.close();
  });

  it('tells a writable store from one that is not', () => {
    const path = join(dir, 'e.sqlite');
    const store = new EnquiryStore(path);
    expect(store.isWritable()).toBe(true);
    store.close();
    const readOnly = new EnquiryStore(path, { readOnly: true });
    expect(readOnly.isWritable()).toBe(false);
    readOnly.close();
  });
});

describe('idempotency keys', () => {
  const outboxRows = (store: EnquiryStore) =>
    (store.db.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n;

  it('store an enquiry once per key, and answer a repeat with the one stored first', () => {
    const store = new EnquiryStore(join(dir, 'e.sqlite'));
    const first = store.add(enquiry({ idempotencyKey: 'key-0000000000000001' }), true);
    const again = store.add(
      enquiry({ idempotencyKey: 'key-0000000000000001', name: 'Someone Else' }),
      true,
    );
    expect(again.id).toBe(first.id);
    expect(again.name).toBe('Grace Hopper');
    expect(store.count()).toBe(1);
    expect(outboxRows(store)).toBe(1);
    expect(store.findByKey('key-0000000000000001')?.id).toBe(first.id);
    expect(store.findByKey('key-0000000000000002')).toBeUndefined();
    store.close();
  });

  it('keep other keys, and enquiries without a key, apart', () => {
    const store = new EnquiryStore(join(dir, 'e.sqlite'));
    store.add(enquiry({ idempotencyKey: 'key-0000000000000001' }), true);
    store.add(enquiry({ idempotencyKey: 'key-0000000000000002' }), true);
    store.add(enquiry(), true);
    store.add(enquiry(), true);
    expect(store.count()).toBe(4);
    expect(store.all().map((e) => e.idempotencyKey)).toEqual([
      'key-0000000000000001',
      'key-0000000000000002',
      undefined,
      undefined,
    ]);
    store.close();
  });

  it('hold within one group commit: posts of one key in the same batch store one enquiry', async () => {
    const store = new EnquiryStore(join(dir, 'e.sqlite'));
    const stored = await Promise.all(
      Array.from({ length: 5 }, () =>
        store.commit(enquiry({ idempotencyKey: 'key-0000000000000003' }), true),
      ),
    );
    expect(new Set(stored.map((e) => e.id)).size).toBe(1);
    expect(store.count()).toBe(1);
    expect(outboxRows(store)).toBe(1);
    store.close();
  });

  it('are added to a store made before them, whose enquiries keep no key', () => {
    const path = join(dir, 'e.sqlite');
    // A store of the first version of the schema, with an enquiry already mailed.
    const db = new DatabaseSync(path);
    db.exec(migrations[0]!);
    db.exec('PRAGMA user_version = 1');
    db.exec(`INSERT INTO enquiries (id, kind, created_at, name, email, data, client_ip, user_agent)
             VALUES ('old-1', 'call', '2026-01-01T00:00:00.000Z', 'Ada', 'ada@example.com', '{}', '127.0.0.1', 'test');
             INSERT INTO outbox (enquiry_id, attempts, next_attempt_at, sent_at) VALUES ('old-1', 1, 0, 1000);`);
    db.close();

    const store = new EnquiryStore(path);
    expect(store.db.prepare('PRAGMA user_version').get()).toEqual({
      user_version: migrations.length,
    });
    expect(store.all().map((e) => [e.id, e.idempotencyKey, e.mailedAt])).toEqual([
      ['old-1', undefined, new Date(1000).toISOString()],
    ]);
    store.add(enquiry({ idempotencyKey: 'key-0000000000000004' }), true);
    store.add(enquiry({ idempotencyKey: 'key-0000000000000004' }), true);
    expect(store.count()).toBe(2);
    store.close();
  });
});

describe('the e-mail', () => {
  it('is plain text with every field, and a reply-to of the visitor', () => {
    const stored = new EnquiryStore(':memory:').add(enquiry(), true);
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
    const stored = new EnquiryStore(':memory:').add(
      enquiry({
        name: 'Eve\r\nBcc: victim@example.com',
        email: 'eve@example.com\r\nX-Injected: 1',
      }),
      true,
    );
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

describe('the outbox', () => {
  it('retries while the server is down and sends each enquiry once when it is back', async () => {
    const store = new EnquiryStore(join(dir, 'e.sqlite'));
    const ids = [store.add(enquiry(), true).id, store.add(enquiry({ name: 'Ada' }), true).id];
    let up = false;
    const sent: Mail[] = [];
    const outbox = new Outbox({
      store,
      from: 'a@b.co',
      to: 'c@d.co',
      pollMs: 10,
      retryBaseMs: 20,
      sender: {
        async send(mail) {
          if (!up) throw new Error('ECONNREFUSED');
          sent.push(mail);
        },
      },
    });
    await outbox.drain();
    expect(sent).toHaveLength(0);
    expect(store.all()[0]!.mailAttempts).toBe(1);
    up = true;
    outbox.start();
    await expect.poll(() => sent.length, { timeout: 2000 }).toBe(2);
    await new Promise((r) => setTimeout(r, 100));
    await outbox.stop();
    expect(sent.map((m) => m.messageId).sort()).toEqual(
      ids.map((id) => `<${id}@enquiries.invalid>`).sort(),
    );
    expect(store.all().every((e) => e.mailedAt !== null)).toBe(true);
    store.close();
  });
});

describe('group commit', () => {
  it('commits enquiries that arrive together in one transaction, and each promise after it', async () => {
    const store = new EnquiryStore(join(dir, 'e.sqlite'));
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.commit(enquiry({ name: `n${i}` }), true)),
    );
    expect(new Set(results.map((r) => r.id)).size).toBe(50);
    expect(store.count()).toBe(50);
    expect(store.due(Date.now(), 100)).toHaveLength(50);
    store.close();
  });

  it('rejects every promise of a batch whose transaction fails', async () => {
    const store = new EnquiryStore(join(dir, 'e.sqlite'));
    const pending = [store.commit(enquiry(), true), store.commit(enquiry(), true)];
    store.close();
    for (const promise of pending) await expect(promise).rejects.toThrow();
  });
});
