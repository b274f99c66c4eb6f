/**
 * `npm run enquiries`: lists the stored enquiries, newest last; a booked call shows its time.
 * `npm run enquiries -- --csv > enquiries.csv` exports them as CSV.
 * `--spam` includes those caught by the honeypot (left out by default).
 * It reads the store the server uses: DATABASE_URL (PostgreSQL) when set, else ENQUIRY_DB (SQLite).
 */
import { existsSync } from 'node:fs';
import { readConfig } from './config.ts';
import { callZones, formatCallTime } from '../lib/call-times.ts';
import { openStore, type StoredEnquiry } from './store.ts';

const args = new Set(process.argv.slice(2));
const config = readConfig();
if (!config.databaseUrl && !existsSync(config.databasePath)) {
  console.error(
    `No enquiries yet: ${config.databasePath} does not exist (set ENQUIRY_DB to read another store, or DATABASE_URL for PostgreSQL).`,
  );
  process.exit(1);
}

let enquiries: StoredEnquiry[];
try {
  const store = await openStore(config, { readOnly: true });
  try {
    enquiries = (await store.all()).filter((e) => args.has('--spam') || !e.spam);
  } finally {
    await store.close();
  }
} catch (error) {
  // A database that is down, or one no server has set up yet (the server runs the migrations).
  console.error(`Cannot read the enquiries: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}

const callStatus = (e: StoredEnquiry) =>
  !e.call ? '' : e.call.cancelledAt ? `cancelled ${e.call.cancelledAt}` : 'booked';

/** A booked call's time in the agency's zone (as it was when booked), and whether it still stands. */
const callTime = (e: StoredEnquiry) =>
  e.call
    ? `${formatCallTime(e.call.start, callZones(e.data).agency)}${e.call.cancelledAt ? ' (cancelled)' : ''}`
    : '';

const columns: [string, (e: StoredEnquiry) => string][] = [
  ['id', (e) => e.id],
  ['received', (e) => e.createdAt],
  ['kind', (e) => e.kind],
  ['name', (e) => e.name],
  ['email', (e) => e.email],
  ['phone', (e) => String(e.data.contact ?? '')],
  ['services', (e) => ([] as string[]).concat(e.data.service ?? []).join('; ')],
  ['message', (e) => String(e.data.project ?? e.data.message ?? '')],
  ['mailed', (e) => e.mailedAt ?? (e.spam ? 'spam' : '')],
  // Added with bookings, after the earlier columns so that a sheet built on those still reads right.
  ['call_start', (e) => e.call?.start ?? ''],
  ['call_end', (e) => e.call?.end ?? ''],
  ['call_status', callStatus],
];

/** RFC 4180 quoting; a leading =, +, - or @ is prefixed so that spreadsheets do not run it as a formula. */
const csvCell = (value: string) => {
  const phone = /^\+[\d ]+$/.test(value);
  const safe = !phone && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

if (args.has('--csv')) {
  const lines = [columns.map(([name]) => name).join(',')];
  for (const e of enquiries) lines.push(columns.map(([, get]) => csvCell(get(e))).join(','));
  process.stdout.write(`${lines.join('\r\n')}\r\n`);
} else if (enquiries.length === 0) {
  console.log('No enquiries stored.');
} else {
  for (const e of enquiries) {
    const what = e.call ? 'Booked call' : e.kind === 'call' ? 'Call request' : 'Enquiry';
    console.log(`${e.createdAt}  ${what} from ${e.name} <${e.email}>`);
    if (e.call) console.log(`  call: ${callTime(e)}`);
    for (const [name, get] of columns.slice(5, 9)) {
      const value = get(e);
      if (value) console.log(`  ${name}: ${value.replace(/\s+/g, ' ').slice(0, 200)}`);
    }
  }
  console.log(`\n${enquiries.length} enquir${enquiries.length === 1 ? 'y' : 'ies'}.`);
}
