/**
 * The staff desk's records (../staff/), written once for both engines over ./db.ts: sign-in links,
 * sessions, passkeys and the audit log. A session is kept under a hash of its cookie's token, so
 * that the store never holds what signs anyone in.
 */
import type { AuditLine } from '../../domain/staff.ts';
import type { Db } from './db.ts';

/** A staff session, alive. */
export interface StaffSession {
  email: string;
  createdAt: number;
}

/** A member's passkey: its credential id and public key (base64url), and its use counter. */
export interface StoredPasskey {
  id: string;
  email: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

/** What became of a sign-in link: its address, or why it signs no one in. */
export type LinkUse = { email: string } | { refused: 'unknown' | 'used' | 'expired' };

export interface StaffRecords {
  /** A new sign-in link for `email`, valid `ttlMs` from `now`. */
  addLink(id: string, email: string, now: number, ttlMs: number): Promise<void>;
  /** How many links `email` was sent after `since`. */
  linksSince(email: string, since: number): Promise<number>;
  /** Whether a link would sign in now, without using it (the page that shows the button). */
  checkLink(id: string, now: number): Promise<LinkUse>;
  /** Uses a link: once, before it expires; of two uses at once, one signs in. */
  useLink(id: string, now: number): Promise<LinkUse>;
  startSession(hash: string, email: string, now: number): Promise<void>;
  /**
   * The session kept under `hash`, if not ended, seen within `idleMs` and begun within `maxMs`;
   * seen now (written at most once a minute).
   */
  session(
    hash: string,
    now: number,
    idleMs: number,
    maxMs: number,
  ): Promise<StaffSession | undefined>;
  endSession(hash: string, now: number): Promise<void>;
  audit(entry: AuditLine): Promise<void>;
  /** The last `limit` lines, newest first. */
  recentAudit(limit: number): Promise<AuditLine[]>;
  addPasskey(passkey: StoredPasskey, now: number): Promise<void>;
  passkey(id: string): Promise<StoredPasskey | undefined>;
  passkeysOf(email: string): Promise<StoredPasskey[]>;
  /** A passkey used at `now`, its counter as the authenticator gave it. */
  usePasskey(id: string, counter: number, now: number): Promise<void>;
  /** Marks an enquiry handled by `email` at `now`, or not handled; whether there was one. */
  markHandled(enquiryId: string, email: string | null, now: number): Promise<boolean>;
}

export function staffRecords(db: Db): StaffRecords {
  const linkState = async (id: string, now: number): Promise<LinkUse> => {
    const [row] = await db.all(`SELECT email, expires_at, used_at FROM staff_links WHERE id = ?`, [
      id,
    ]);
    if (!row) return { refused: 'unknown' };
    if (row.used_at !== null) return { refused: 'used' };
    if (Number(row.expires_at) <= now) return { refused: 'expired' };
    return { email: row.email as string };
  };
  return {
    async addLink(id, email, now, ttlMs) {
      await db.run(
        `INSERT INTO staff_links (id, email, created_at, expires_at) VALUES (?, ?, ?, ?)`,
        [id, email, now, now + ttlMs],
      );
    },
    async linksSince(email, since) {
      const [row] = await db.all(
        `SELECT CAST(count(*) AS INTEGER) AS n FROM staff_links WHERE email = ? AND created_at > ?`,
        [email, since],
      );
      return Number(row!.n);
    },
    checkLink: linkState,
    async useLink(id, now) {
      const used = await db.all(
        `UPDATE staff_links SET used_at = ? WHERE id = ? AND used_at IS NULL AND expires_at > ?
         RETURNING email`,
        [now, id, now],
      );
      return used[0] ? { email: used[0].email as string } : linkState(id, now);
    },
    async startSession(hash, email, now) {
      await db.run(
        `INSERT INTO staff_sessions (id, email, created_at, seen_at) VALUES (?, ?, ?, ?)`,
        [hash, email, now, now],
      );
    },
    async session(hash, now, idleMs, maxMs) {
      const [row] = await db.all(
        `SELECT email, created_at, seen_at FROM staff_sessions
         WHERE id = ? AND ended_at IS NULL AND seen_at > ? AND created_at > ?`,
        [hash, now - idleMs, now - maxMs],
      );
      if (!row) return undefined;
      if (Number(row.seen_at) < now - 60_000)
        await db.run(`UPDATE staff_sessions SET seen_at = ? WHERE id = ?`, [now, hash]);
      return { email: row.email as string, createdAt: Number(row.created_at) };
    },
    async endSession(hash, now) {
      await db.run(`UPDATE staff_sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL`, [
        now,
        hash,
      ]);
    },
    async audit({ at, actor, action, subject, detail }) {
      await db.run(
        `INSERT INTO staff_audit (at, actor, action, subject, detail) VALUES (?, ?, ?, ?, ?)`,
        [at, actor, action, subject, detail],
      );
    },
    async recentAudit(limit) {
      const rows = await db.all(
        `SELECT at, actor, action, subject, detail FROM staff_audit ORDER BY at DESC LIMIT ?`,
        [limit],
      );
      return rows.map((row) => ({
        at: Number(row.at),
        actor: row.actor as string,
        action: row.action as string,
        subject: row.subject as string | null,
        detail: row.detail as string | null,
      }));
    },
    async addPasskey({ id, email, publicKey, counter, transports }, now) {
      await db.run(
        `INSERT INTO staff_passkeys (id, email, public_key, counter, transports, created_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
        [id, email, publicKey, counter, transports.join(','), now],
      );
    },
    async passkey(id) {
      const [row] = await db.all(`${PASSKEYS} WHERE id = ?`, [id]);
      return row && passkeyOf(row);
    },
    async passkeysOf(email) {
      return (await db.all(`${PASSKEYS} WHERE email = ?`, [email])).map(passkeyOf);
    },
    async usePasskey(id, counter, now) {
      await db.run(`UPDATE staff_passkeys SET counter = ?, used_at = ? WHERE id = ?`, [
        counter,
        now,
        id,
      ]);
    },
    async markHandled(enquiryId, email, now) {
      const changed = await db.run(
        `UPDATE enquiries SET handled_at = ?, handled_by = ? WHERE id = ?`,
        [email === null ? null : now, email, enquiryId],
      );
      return changed > 0;
    },
  };
}

const PASSKEYS = `SELECT id, email, public_key, counter, transports FROM staff_passkeys`;

const passkeyOf = (row: Record<string, unknown>): StoredPasskey => ({
  id: row.id as string,
  email: row.email as string,
  publicKey: row.public_key as string,
  counter: Number(row.counter),
  transports: ((row.transports as string | null) ?? '').split(',').filter(Boolean),
});
