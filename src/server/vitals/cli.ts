/**
 * `npm run vitals`: the field data of the last 28 days, p75 per page and metric, then per
 * connection type and device class. `-- --days N` for another window; `-- --csv` prints every
 * measurement as CSV (`> vitals.csv`); `-- --html report.html` writes a page with a chart per
 * metric. The CSV is written as the measurements are read, a page at a time; the store works out
 * the reports' figures. Reads the store the server uses: DATABASE_URL (PostgreSQL) when set, else
 * ENQUIRY_DB.
 * What it prints is made by ./report.ts; this file is the arguments and the I/O.
 */
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dateProblem } from '../../domain/booking.ts';
import { commandArgs, writeOutput, wrongCall } from '../command-args.ts';
import { serverConfig } from '../config.ts';
import { openStore } from '../store/index.ts';
import type { VitalsDay } from '../store/types.ts';
import {
  dailyP75Of,
  formatHtmlReport,
  formatTables,
  reportTablesOf,
  VITALS_CSV_HEADER,
  vitalsCsvLines,
  windowStart,
  type ReportTables,
  type Summary,
} from './report.ts';

const USAGE = 'Usage: npm run vitals [-- --days 28] [--to YYYY-MM-DD] [--csv | --html report.html]';
/** Ten years: more than any store keeps (VITALS_RETENTION_DAYS, 90), and a date the report can write. */
const MAX_DAYS = 3660;

const { values } = commandArgs(USAGE, {
  options: {
    days: { type: 'string', default: '28' },
    csv: { type: 'boolean', default: false },
    html: { type: 'string' },
    // The last day of the window, for a report of the past (and for tests): 'YYYY-MM-DD'.
    to: { type: 'string' },
  },
});
const days = Number(values.days);
if (!/^\d{1,4}$/.test(values.days) || days < 1 || days > MAX_DAYS)
  wrongCall(`--days takes a whole number of days, 1 to ${MAX_DAYS}.`, USAGE);
const to = values.to ?? new Date().toISOString().slice(0, 10);
if (dateProblem(to)) wrongCall('--to takes a day of the calendar, as YYYY-MM-DD.', USAGE);
const from = windowStart(to, days);

const config = serverConfig();
if (!config.databaseUrl && !existsSync(config.databasePath)) {
  console.error(
    `No field data yet: ${config.databasePath} does not exist (set ENQUIRY_DB to read another store, or DATABASE_URL for PostgreSQL).`,
  );
  process.exit(1);
}

/** What the reports read: the tables, and for the HTML report each day's p75s. */
interface Read {
  tables: ReportTables;
  daily?: Summary[];
  counts: VitalsDay[];
}

// A reader that has read enough (`| head`) closes the pipe: the CSV ends there, as it asked.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

/** Lines to the output, waiting when it is full (a pipe to a slower reader). */
async function print(text: string) {
  if (!process.stdout.write(text)) await once(process.stdout, 'drain');
}

let read: Read | undefined;
try {
  const store = await openStore(config, { readOnly: true });
  try {
    // The CSV lists every measurement of the window, a page at a time as read; the reports' p75s
    // are worked out by the store. The window's measurements, up to VITALS_DAILY_CAP a day, are
    // never all in this process.
    if (values.csv) {
      await print(VITALS_CSV_HEADER);
      for await (const page of store.vitalsPages(from, to)) await print(vitalsCsvLines(page));
    } else {
      read = {
        tables: await reportTablesOf(store, from, to),
        ...(values.html && { daily: await dailyP75Of(store, from, to) }),
        counts: (await store.vitalsDaysSince(from)).filter((d) => d.day <= to),
      };
    }
  } finally {
    await store.close();
  }
} catch (error) {
  console.error(`Cannot read the field data: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}

if (read && values.html && read.daily) {
  // The site's public address: SITE_URL, else the build's (dist/build.json).
  let site = config.siteUrl;
  try {
    site ??= JSON.parse(readFileSync(join(config.distDir, 'build.json'), 'utf8')).site;
  } catch {
    // No build here: the report says 'the site'.
  }
  site ??= 'the site';
  writeOutput(values.html, formatHtmlReport(read.tables, read.daily, from, to, site));
  console.log(`Wrote ${values.html}: ${read.tables.measurements} measurements, ${from} to ${to}.`);
} else if (read) console.log(formatTables(read.tables, from, to, read.counts));
