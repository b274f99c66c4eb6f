/**
 * `npm run enquiries`: lists the stored enquiries, newest last.
 * `npm run enquiries -- --csv > enquiries.csv` exports them as CSV.
 * `--spam` includes those caught by the honeypot (left out by default).
 */
import { existsSync } from 'node:fs';
import { readConfig } from './config.ts';
import { EnquiryStore, type StoredEnquiry } from './store.ts';

const args = new Set(process.argv.slice(2));
const { databasePath } = readConfig();
if (!existsSync(databasePath)) {
  console.error(
    `No enquiries yet: ${databasePath} does not exist (set ENQUIRY_DB to read another store).`,
  );
  process.exit(1);
}

const store = new EnquiryStore(databasePath, { readOnly: true });
const enquiries = store.all().filter((e) => args.has('--spam') || !e.spam);
store.close();

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
    console.log(
      `${e.createdAt}  ${e.kind === 'call' ? 'Call request' : 'Enquiry'} from ${e.name} <${e.email}>`,
    );
    for (const [name, get] of columns.slice(5)) {
      const value = get(e);
      if (value) console.log(`  ${name}: ${value.replace(/\s+/g, ' ').slice(0, 200)}`);
    }
  }
  console.log(`\n${enquiries.length} enquir${enquiries.length === 1 ? 'y' : 'ies'}.`);
}
