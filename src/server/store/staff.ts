/**
 * The staff desk's records (../staff/), written once for both engines over ./db.ts: sign-in links,
 * passkey ceremonies' challenges, sessions, passkeys and the audit log. A link's id, a challenge and
 * a session's token are each kept only as a hash, so that the store never holds what signs anyone in.
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
  /** When it was added, and last signed in with (as read; not written by addPasskey). */
  createdAt?: number;
  usedAt?: number | null;
}

/** What became of a sign-in link: its address, or why it signs no one in. */
export type LinkUse = { email: string } | { refused: 'unknown' | 'used' | 'expired' };

/** A sign-in link as the rule of how many a member is sent reads it (../staff/links.ts). */
export interface SentLink {
  /** The member's nth link: of two requests that would both send the next, one does. */
  seq: number;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

/** A link to send: `ref` names it to its e-mail's job, and signs nothing. */
export interface NewLink extends Omit<SentLink, 'usedAt'> {
  ref: string;
  email: string;
}

/** What a passkey ceremony's challenge is for: each is used only for that. */
export type ChallengePurpose = 'register' | 'sign-in';

export interface NewChallenge {
  /** A hash of the challenge: the store never holds the challenge itself. */
  hash: string;
  purpose: ChallengePurpose;
  /** The member adding a passkey; null for a sign-in, whose passkey says who. */
  email: string | null;
  /** The network that asked (../networks.ts wideNetwork): its challenges are bounded. */
  network: string;
  expiresAt: number;
}

export interface StaffRecords {
  /** The member's last `limit` links, newest first. */
  recentLinks(email: string, limit: number): Promise<SentLink[]>;
  /**
   * Keeps a link to send (its id is made, and its hash set, as its e-mail is: armLink); false when
   * another request took its `seq` first. Links expired a day ago are swept.
   */
  addLink(link: NewLink, now: number): Promise<boolean>;
  /**
   * Sets the hash of the id of link `ref`, as its e-mail is made (again, if it is sent again):
   * its address and expiry, or undefined if it is used, expired or gone.
   */
  armLink(
    ref: string,
    idHash: string,
    now: number,
  ): Promise<{ email: string; expiresAt: number } | undefined>;
  /** Whether the link of this id hash would sign in now, without using it (the page with the button). */
  checkLink(idHash: string, now: number): Promise<LinkUse>;
  /** Uses a link: once, before it expires; of two uses at once, one signs in. */
  useLink(idHash: string, now: number): Promise<LinkUse>;
  /**
   * Keeps a ceremony's challenge, unless its network holds `perNetwork` live ones already (false);
   * the expired ones of every network are swept first.
   */
  addChallenge(challenge: NewChallenge, now: number, perNetwork: number): Promise<boolean>;
  /** Uses a challenge of `purpose`, once, before it expires: whose it was (null: no one's yet). */
  useChallenge(
    hash: string,
    purpose: ChallengePurpose,
    now: number,
  ): Promise<{ email: string | null } | undefined>;
  /** How many challenges a network holds, live or not yet swept. */
  challengesOf(network: string): Promise<number>;
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
  /** Ends every session of `email` but `keep` (a member signing out elsewhere); how many. */
  endOtherSessions(email: string, keep: string, now: number): Promise<number>;
  audit(entry: AuditLine): Promise<void>;
  /** The last `limit` lines, newest first. */
  recentAudit(limit: number): Promise<AuditLine[]>;
  addPasskey(passkey: StoredPasskey, now: number): Promise<void>;
  passkey(id: string): Promise<StoredPasskey | undefined>;
  passkeysOf(email: string): Promise<StoredPasskey[]>;
  /** A passkey used at `now`, its counter as the authenticator gave it. */
  usePasskey(id: string, counter: number, now: number): Promise<void>;
  /** Removes a passkey of `email`'s (none of another member's); whether there was one. */
  removePasskey(id: string, email: string): Promise<boolean>;
  /**
   * What signs in anyone but `members` (addresses as kept) is gone for good: their passkeys
   * deleted, their sessions ended, their links unused expired; how many passkeys and sessions. An
   * address taken off the members and put back later starts with none.
   */
  forgetFormerMembers(
    members: readonly string[],
    now: number,
  ): Promise<{ passkeys: number; sessions: number }>;
  /**
   * Marks an enquiry handled by `email` at `now` (one handled already is left as it is), or not
   * handled; whether it changed.
   */
  markHandled(enquiryId: string, email: string | null, now: number): Promise<boolean>;
}

/** How long a used or expired link is kept (its page says "used" or "expired", not "unknown"). */
const LINKS_KEPT_MS = 86_400_000;

export function staffRecords(db: Db): StaffRecords {
  return {
    ...linkRecords(db),
    ...challengeRecords(db),
    ...sessionRecords(db),
    ...auditRecords(db),
    ...passkeyRecords(db),
    forgetFormerMembers: (members, now) => forgetFormerMembers(db, members, now),
  };
}

/**
 * See StaffRecords.forgetFormerMembers: one transaction, so no row of a former member is left. With
 * no members at all, nothing: that is a start without STAFF_EMAILS or hosts (a mistake of the
 * environment), which signs no one in meanwhile, and must not cost everyone their passkeys.
 */
async function forgetFormerMembers(db: Db, members: readonly string[], now: number) {
  if (!members.length) return { passkeys: 0, sessions: 0 };
  const others = `email NOT IN (${members.map(() => '?').join(', ')})`;
  return db.transaction(async (tx) => {
    const passkeys = await tx.run(`DELETE FROM staff_passkeys WHERE ${others}`, members);
    const sessions = await tx.run(
      `UPDATE staff_sessions SET ended_at = ? WHERE ended_at IS NULL AND ${others}`,
      [now, ...members],
    );
    await tx.run(
      `UPDATE staff_links SET expires_at = ? WHERE used_at IS NULL AND expires_at > ? AND ${others}`,
      [now, now, ...members],
    );
    return { passkeys, sessions };
  });
}

type Records<K extends keyof StaffRecords> = Pick<StaffRecords, K>;

/** Sign-in links: kept to send, armed as their e-mail is made, checked, used once. */
function linkRecords(
  db: Db,
): Records<'recentLinks' | 'addLink' | 'armLink' | 'checkLink' | 'useLink'> {
  const linkState = async (idHash: string, now: number): Promise<LinkUse> => {
    const [row] = await db.all(
      `SELECT email, expires_at, used_at FROM staff_links WHERE id_hash = ?`,
      [idHash],
    );
    if (!row) return { refused: 'unknown' };
    if (row.used_at !== null) return { refused: 'used' };
    if (Number(row.expires_at) <= now) return { refused: 'expired' };
    return { email: row.email as string };
  };
  return {
    async recentLinks(email, limit) {
      const rows = await db.all(
        `SELECT seq, created_at, expires_at, used_at FROM staff_links
         WHERE email = ? ORDER BY seq DESC LIMIT ?`,
        [email, limit],
      );
      return rows.map((row) => ({
        seq: Number(row.seq),
        createdAt: Number(row.created_at),
        expiresAt: Number(row.expires_at),
        usedAt: row.used_at === null ? null : Number(row.used_at),
      }));
    },
    async addLink({ ref, email, seq, createdAt, expiresAt }, now) {
      await db.run(`DELETE FROM staff_links WHERE expires_at < ?`, [now - LINKS_KEPT_MS]);
      const added = await db.run(
        `INSERT INTO staff_links (ref, email, seq, created_at, expires_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT DO NOTHING`,
        [ref, email, seq, createdAt, expiresAt],
      );
      return added > 0;
    },
    async armLink(ref, idHash, now) {
      const [row] = await db.all(
        `UPDATE staff_links SET id_hash = ? WHERE ref = ? AND used_at IS NULL AND expires_at > ?
         RETURNING email, expires_at`,
        [idHash, ref, now],
      );
      return row && { email: row.email as string, expiresAt: Number(row.expires_at) };
    },
    checkLink: linkState,
    async useLink(idHash, now) {
      const used = await db.all(
        `UPDATE staff_links SET used_at = ?
         WHERE id_hash = ? AND used_at IS NULL AND expires_at > ?
         RETURNING email`,
        [now, idHash, now],
      );
      return used[0] ? { email: used[0].email as string } : linkState(idHash, now);
    },
  };
}

/** Passkey ceremonies' challenges: a network's bounded, each used once for its purpose. */
function challengeRecords(db: Db): Records<'addChallenge' | 'useChallenge' | 'challengesOf'> {
  return {
    async addChallenge({ hash, purpose, email, network, expiresAt }, now, perNetwork) {
      await db.run(`DELETE FROM staff_challenges WHERE expires_at <= ?`, [now]);
      // Each live challenge holds one of its network's slots: the bound is the unique index's,
      // so that requests at once, in any number of processes, cannot pass it.
      const taken = new Set(
        (await db.all(`SELECT slot FROM staff_challenges WHERE network = ?`, [network])).map(
          (row) => Number(row.slot),
        ),
      );
      const slot = Array.from({ length: perNetwork }, (_, i) => i).find((i) => !taken.has(i));
      if (slot === undefined) return false;
      const added = await db.run(
        `INSERT INTO staff_challenges (hash, purpose, email, network, slot, expires_at)
         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
        [hash, purpose, email, network, slot, expiresAt],
      );
      return added > 0;
    },
    async useChallenge(hash, purpose, now) {
      const [row] = await db.all(
        `DELETE FROM staff_challenges WHERE hash = ? AND purpose = ? AND expires_at > ?
         RETURNING email`,
        [hash, purpose, now],
      );
      return row && { email: row.email as string | null };
    },
    async challengesOf(network) {
      const [row] = await db.all(
        `SELECT CAST(count(*) AS INTEGER) AS n FROM staff_challenges WHERE network = ?`,
        [network],
      );
      return Number(row!.n);
    },
  };
}

/** Sessions: begun, seen (at most once a minute), ended. */
function sessionRecords(
  db: Db,
): Records<'startSession' | 'session' | 'endSession' | 'endOtherSessions'> {
  return {
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
    async endOtherSessions(email, keep, now) {
      return db.run(
        `UPDATE staff_sessions SET ended_at = ? WHERE email = ? AND id <> ? AND ended_at IS NULL`,
        [now, email, keep],
      );
    },
  };
}

/** What members did: the audit log, and the enquiries they marked handled. */
function auditRecords(db: Db): Records<'audit' | 'recentAudit' | 'markHandled'> {
  return {
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
    async markHandled(enquiryId, email, now) {
      // One handled already keeps who handled it and when, and is no change: a colleague's page
      // opened before says it is new, and their Mark handled must not be told (or logged) as done.
      const changed = await db.run(
        email === null
          ? `UPDATE enquiries SET handled_at = NULL, handled_by = NULL WHERE id = ?`
          : `UPDATE enquiries SET handled_at = ?, handled_by = ? WHERE id = ? AND handled_at IS NULL`,
        email === null ? [enquiryId] : [now, email, enquiryId],
      );
      return changed > 0;
    },
  };
}

/** Members' passkeys: added, found by id or member, their counter kept as used. */
function passkeyRecords(
  db: Db,
): Records<'addPasskey' | 'passkey' | 'passkeysOf' | 'usePasskey' | 'removePasskey'> {
  return {
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
      return (await db.all(`${PASSKEYS} WHERE email = ? ORDER BY created_at`, [email])).map(
        passkeyOf,
      );
    },
    async removePasskey(id, email) {
      return (
        (await db.run(`DELETE FROM staff_passkeys WHERE id = ? AND email = ?`, [id, email])) > 0
      );
    },
    async usePasskey(id, counter, now) {
      await db.run(`UPDATE staff_passkeys SET counter = ?, used_at = ? WHERE id = ?`, [
        counter,
        now,
        id,
      ]);
    },
  };
}

const PASSKEYS = `SELECT id, email, public_key, counter, transports, created_at, used_at
  FROM staff_passkeys`;

const passkeyOf = (row: Record<string, unknown>): StoredPasskey => ({
  id: row.id as string,
  email: row.email as string,
  publicKey: row.public_key as string,
  counter: Number(row.counter),
  transports: ((row.transports as string | null) ?? '').split(',').filter(Boolean),
  createdAt: Number(row.created_at),
  usedAt: row.used_at === null || row.used_at === undefined ? null : Number(row.used_at),
});
