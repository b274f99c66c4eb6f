/**
 * Field data's records (../vitals/), written once for both engines over ./db.ts: each measurement
 * kept (a day's at most VITALS_DAILY_CAP, a random sample of them), each day's counts of those
 * received and dropped, and the figures /speed and the desk read (p75 by any split), the long ones
 * read aside (./read-aside.ts) where the engine would hold the server's thread.
 */
import type { Driver, Db } from './db.ts';
import type {
  NewVitalRecord,
  VitalRecord,
  VitalsDay,
  VitalsDayCounts,
  VitalsKey,
  VitalsP75,
  VitalsStore,
} from './types.ts';
import type { MetricName } from '../../domain/vitals.ts';

/** The records of field data: the store's VitalsStore but its secret (a site secret, ./store.ts). */
export type VitalsRecords = Omit<VitalsStore, 'vitalsSecret'>;

export const vitalsRecords = (driver: Driver): VitalsRecords => ({
  ...vitalsWrites(driver),
  ...vitalsReads(driver),
});

/** Measurements kept (a day sampled down to its cap), with the day's counts; old days dropped. */
function vitalsWrites({ db, dialect }: Driver): Pick<VitalsRecords, 'addVitals' | 'pruneVitals'> {
  return {
    addVitals(records: readonly NewVitalRecord[], { counts = [], dailyCap = Infinity } = {}) {
      return db.transaction(async (tx) => {
        for (const r of records) {
          await tx.run(
            `INSERT INTO vitals (day, path, metric, value, rating, navigation, connection, device,
               build, target, phases, network, sample) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            [
              r.day,
              r.path,
              r.metric,
              r.value,
              r.rating,
              r.navigation,
              r.connection,
              r.device,
              r.build,
              r.target,
              dialect.numbers(r.phases),
              r.network,
              r.sample ?? Math.random(),
            ],
          );
        }
        for (const c of counts)
          await tx.run(
            `INSERT INTO vitals_days (day, received, dropped) VALUES (?, ?, ?)
             ON CONFLICT (day) DO UPDATE SET received = vitals_days.received + excluded.received,
               dropped = vitals_days.dropped + excluded.dropped`,
            [c.day, c.received, c.dropped],
          );
        const kept = new Map<string, number>();
        for (const day of new Set(records.map((r) => r.day)))
          kept.set(day, await keepSample(tx, day, dailyCap));
        return kept;
      });
    },

    async pruneVitals(day: string) {
      await db.run(`DELETE FROM vitals_days WHERE day < ?`, [day]);
      return db.run(`DELETE FROM vitals WHERE day < ?`, [day]);
    },
  };
}

/** The figures (/speed, the desk, `npm run vitals`): long reads aside where the engine would block. */
function vitalsReads(driver: Driver): Omit<VitalsRecords, 'addVitals' | 'pruneVitals'> {
  const { db, dialect } = driver;
  /** A long read, off the thread that answers the visitors where the engine would hold it (SQLite). */
  const aside = (sql: string, params: readonly unknown[]) =>
    driver.readAside?.(sql, params) ?? db.all(sql, params);
  const columns = () => `${dialect.day('day')} AS day, path, metric, value, rating, navigation,
      connection, device, build, target, phases, network`;

  return {
    async vitalsDaysSince(day: string): Promise<VitalsDay[]> {
      // Each day's measurements counted (up to VITALS_DAILY_CAP each): read aside.
      const rows = await aside(
        `SELECT ${dialect.day('d.day')} AS day, CAST(d.received AS INTEGER) AS received,
           CAST(d.dropped AS INTEGER) AS dropped,
           (SELECT CAST(count(*) AS INTEGER) FROM vitals v WHERE v.day = d.day) AS kept
         FROM vitals_days d WHERE d.day >= ? ORDER BY d.day`,
        [day],
      );
      return rows as unknown as VitalsDay[];
    },

    async vitalsP75<K extends VitalsKey>(
      day: string,
      by: readonly K[],
      { metrics = [], to }: { metrics?: readonly MetricName[]; to?: string } = {},
    ): Promise<VitalsP75<K>[]> {
      // A measurement with no network key is a network of its own; a day as the site writes one.
      const column = (key: VitalsKey) =>
        key === 'network'
          ? `COALESCE(network, '#' || ${dialect.insertOrder})`
          : key === 'day'
            ? dialect.day('day')
            : key;
      const keys = by.map(column).join(', ');
      const only = metrics.length ? ` AND metric IN (${metrics.map(() => '?').join(', ')})` : '';
      // Weeks of measurements: read aside.
      const rows = await aside(
        `SELECT ${by.join(', ')}, p75, CAST(samples AS INTEGER) AS samples FROM (
           SELECT ${by.map((key) => `${column(key)} AS ${key}`).join(', ')}, value AS p75,
             ROW_NUMBER() OVER (PARTITION BY ${keys} ORDER BY value) AS place,
             COUNT(*) OVER (PARTITION BY ${keys}) AS samples
           FROM vitals WHERE day >= ?${to ? ' AND day <= ?' : ''}${only}
         ) ranked WHERE place = (samples * 3 + 3) / 4`,
        [day, ...(to ? [to] : []), ...metrics],
      );
      return rows as unknown as VitalsP75<K>[];
    },

    async vitalsSince(day: string): Promise<VitalRecord[]> {
      const rows = await db.all(
        `SELECT ${columns()} FROM vitals WHERE day >= ? ORDER BY day, ${dialect.insertOrder}`,
        [day],
      );
      return rows.map(vitalRecordOf);
    },

    async *vitalsPages(from: string, to: string, pageSize = 5000) {
      // By the order stored, which each page goes on from: the whole table is walked once.
      const order = dialect.insertOrder;
      for (let after = 0; ;) {
        const rows = await db.all(
          `SELECT ${columns()}, ${order} AS row_order FROM vitals
           WHERE ${order} > ? AND day >= ? AND day <= ? ORDER BY ${order} LIMIT ?`,
          [after, from, to, pageSize],
        );
        if (rows.length) yield rows.map(vitalRecordOf);
        if (rows.length < pageSize) return;
        after = Number(rows.at(-1)!.row_order);
      }
    },
  };
}

/** Trims a day to its `cap` measurements of smallest sample key; the largest key it keeps. */
async function keepSample(db: Db, day: string, cap: number): Promise<number> {
  const [{ n }] = (await db.all('SELECT CAST(count(*) AS INTEGER) AS n FROM vitals WHERE day = ?', [
    day,
  ])) as [{ n: number }];
  if (Number(n) <= cap) return 1;
  const [{ sample }] = (await db.all(
    'SELECT sample FROM vitals WHERE day = ? ORDER BY sample LIMIT 1 OFFSET ?',
    [day, cap - 1],
  )) as [{ sample: number }];
  await db.run('DELETE FROM vitals WHERE day = ? AND sample > ?', [day, sample]);
  return sample;
}

/** A measurement as read: SQLite keeps its phases as JSON text, PostgreSQL as an array, parsed. */
const vitalRecordOf = ({ row_order: _, ...row }: Record<string, unknown>): VitalRecord => ({
  ...(row as unknown as VitalRecord),
  phases: typeof row.phases === 'string' ? JSON.parse(row.phases) : (row.phases ?? null),
});
