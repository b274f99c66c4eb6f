/**
 * Publishing's records (../releases/), written once for both engines over ./db.ts: the publishes
 * (one queued or building at a time, with its step and progress, which the page shows) and the
 * releases, newest live, each with its built files as a gzipped tar, so that every process, on
 * any machine sharing the store, can fetch the live one without sharing a folder.
 */
import type { Db } from './db.ts';
import type {
  PublishState,
  PublishSummary,
  ReleaseKind,
  ReleaseSummary,
} from '../../domain/publishing.ts';

export interface Publish extends PublishSummary {
  id: number;
  actor: string;
  /** The commit made of the draft, once made (a retry builds it again rather than a new one). */
  commit: string | null;
  updatedAt: number;
}

export interface Release extends ReleaseSummary {
  /** The release whose files this one serves: itself, or for a roll back the release brought back. */
  folder: number;
  commit: string;
  actor: string;
}

export interface NewRelease {
  kind: ReleaseKind;
  /** For a roll back: the release whose files it serves. */
  folder?: number;
  commit: string;
  actor: string;
  actorName: string;
  summary: string;
  /** A publish's files, a gzipped tar of its folder. */
  files?: Uint8Array;
}

export interface ReleaseRecords {
  /**
   * Starts a publish and queues its job (`kind`, `payload(id)`), unless one is queued or building
   * already: that one is answered then (`started: false`), so that two presses give one release.
   */
  startPublish(
    actor: { email: string; name: string },
    job: { kind: string; payload: (id: number) => unknown },
    now: number,
  ): Promise<{ publish: Publish; started: boolean }>;
  publish(id: number): Promise<Publish | undefined>;
  /** The newest publish, if any (the page shows its progress or its outcome). */
  latestPublish(): Promise<Publish | undefined>;
  /** A publish's step and progress, or its end (live or failed: another may start then). */
  updatePublish(
    id: number,
    change: Partial<
      Pick<Publish, 'state' | 'step' | 'progress' | 'commit' | 'releaseId' | 'reason'>
    >,
    now: number,
  ): Promise<void>;
  /** Keeps a release; it is live from now on (the newest is). Its id. */
  addRelease(release: NewRelease, now: number): Promise<number>;
  /** The live release: the newest. */
  live(): Promise<Release | undefined>;
  release(id: number): Promise<Release | undefined>;
  /** The last `limit` releases, newest first. */
  recent(limit: number): Promise<Release[]>;
  /** The files of release `folder` (a gzipped tar), if kept. */
  files(folder: number): Promise<Uint8Array | undefined>;
  /**
   * Drops the files of every release no longer among the newest `keep` (nor served by one of them);
   * the folders still kept.
   */
  prune(keep: number): Promise<number[]>;
}

const RELEASE_COLUMNS = `id, COALESCE(folder, id) AS folder, kind, commit_id, actor, actor_name, summary,
  created_at, (SELECT r2.files IS NOT NULL FROM releases r2 WHERE r2.id = COALESCE(r.folder, r.id)) AS kept`;

const releaseOf = (row: Record<string, unknown>): Release => ({
  id: Number(row.id),
  folder: Number(row.folder),
  kind: row.kind as ReleaseKind,
  commit: row.commit_id as string,
  actor: row.actor as string,
  actorName: row.actor_name as string,
  summary: row.summary as string,
  createdAt: Number(row.created_at),
  kept: Boolean(Number(row.kept ?? 0)) || row.kept === true,
});

const publishOf = (row: Record<string, unknown>): Publish => ({
  id: Number(row.id),
  state: row.state as PublishState,
  step: row.step as string,
  progress: Number(row.progress),
  actor: row.actor as string,
  actorName: row.actor_name as string,
  commit: (row.commit_id as string | null) ?? null,
  releaseId: row.release_id === null ? null : Number(row.release_id),
  reason: (row.reason as string | null) ?? null,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

const COLUMN_OF = {
  state: 'state',
  step: 'step',
  progress: 'progress',
  commit: 'commit_id',
  releaseId: 'release_id',
  reason: 'reason',
} as const;

/** The publishes: one queued or building at a time, its step and progress. */
function publishRecords(
  db: Db,
): Pick<ReleaseRecords, 'startPublish' | 'publish' | 'latestPublish' | 'updatePublish'> {
  const publish = async (id: number) => {
    const [row] = await db.all(`SELECT * FROM publishes WHERE id = ?`, [id]);
    return row && publishOf(row);
  };
  return {
    startPublish: (actor, job, now) =>
      db.transaction(async (tx) => {
        // `active` is unique: of two presses at once, one row is inserted, the other finds it.
        const [row] = await tx.all(
          `INSERT INTO publishes (active, state, step, progress, actor, actor_name, created_at, updated_at)
           VALUES (1, 'queued', 'Waiting to start', 0, ?, ?, ?, ?)
           ON CONFLICT (active) DO NOTHING RETURNING id`,
          [actor.email, actor.name, now, now],
        );
        if (!row) {
          const [active] = await tx.all(`SELECT * FROM publishes WHERE active = 1`);
          return { publish: publishOf(active!), started: false };
        }
        const id = Number(row.id);
        await tx.run(
          `INSERT INTO jobs (enquiry_id, kind, payload, next_attempt_at) VALUES (NULL, ?, ?, ?)`,
          [job.kind, JSON.stringify(job.payload(id)), now],
        );
        const [made] = await tx.all(`SELECT * FROM publishes WHERE id = ?`, [id]);
        return { publish: publishOf(made!), started: true };
      }),
    publish,
    async latestPublish() {
      const [row] = await db.all(`SELECT * FROM publishes ORDER BY id DESC LIMIT 1`);
      return row && publishOf(row);
    },
    async updatePublish(id, change, now) {
      const sets: string[] = [];
      const params: unknown[] = [];
      for (const [key, column] of Object.entries(COLUMN_OF)) {
        const value = change[key as keyof typeof change];
        if (value === undefined) continue;
        sets.push(`${column} = ?`);
        params.push(value);
      }
      // Ended: the slot is free for the next publish.
      if (change.state === 'live' || change.state === 'failed') sets.push('active = NULL');
      await db.run(`UPDATE publishes SET ${[...sets, 'updated_at = ?'].join(', ')} WHERE id = ?`, [
        ...params,
        now,
        id,
      ]);
    },
  };
}

/** The releases, newest live, with their files. */
type ReleaseRows = Pick<
  ReleaseRecords,
  'addRelease' | 'live' | 'release' | 'recent' | 'files' | 'prune'
>;

function releaseRows(db: Db): ReleaseRows {
  const records: ReleaseRows = {
    async addRelease(release, now) {
      const [row] = await db.all(
        `INSERT INTO releases (folder, kind, commit_id, actor, actor_name, summary, created_at, files)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        [
          release.folder ?? null,
          release.kind,
          release.commit,
          release.actor,
          release.actorName,
          release.summary,
          now,
          release.files ?? null,
        ],
      );
      return Number(row!.id);
    },
    async live() {
      const [row] = await db.all(
        `SELECT ${RELEASE_COLUMNS} FROM releases r ORDER BY id DESC LIMIT 1`,
      );
      return row && releaseOf(row);
    },
    async release(id) {
      const [row] = await db.all(`SELECT ${RELEASE_COLUMNS} FROM releases r WHERE id = ?`, [id]);
      return row && releaseOf(row);
    },
    async recent(limit) {
      const rows = await db.all(
        `SELECT ${RELEASE_COLUMNS} FROM releases r ORDER BY id DESC LIMIT ?`,
        [limit],
      );
      return rows.map(releaseOf);
    },
    async files(folder) {
      const [row] = await db.all(`SELECT files FROM releases WHERE id = ?`, [folder]);
      const files = row?.files;
      return files instanceof Uint8Array ? files : undefined;
    },
    async prune(keep) {
      const newest = await records.recent(keep);
      const kept = [...new Set(newest.map((r) => r.folder))];
      if (newest.length < keep) return kept;
      const oldest = newest.at(-1)!.id;
      // Only files of releases older than the newest kept, and served by none of them.
      const rows = await db.all(`SELECT id FROM releases WHERE id < ? AND files IS NOT NULL`, [
        oldest,
      ]);
      for (const { id } of rows)
        if (!kept.includes(Number(id)))
          await db.run(`UPDATE releases SET files = NULL WHERE id = ?`, [Number(id)]);
      return kept;
    },
  };
  return records;
}

export const releaseRecords = (db: Db): ReleaseRecords => ({
  ...publishRecords(db),
  ...releaseRows(db),
});
