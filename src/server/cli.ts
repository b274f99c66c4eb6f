/**
 * `npm run enquiries`: lists the stored enquiries, newest last; a booked call shows its time.
 * `npm run enquiries -- --csv > enquiries.csv` exports them as CSV.
 * `--spam` includes those caught by the honeypot (left out by default).
 * It reads the store the server uses: DATABASE_URL (PostgreSQL) when set, else ENQUIRY_DB (SQLite).
 * What it prints is made by ./enquiries/listing.ts; this file is the arguments and the I/O.
 */
import { existsSync } from 'node:fs';
import { serverConfig } from './config.ts';
import { formatCsv, formatListing } from './enquiries/listing.ts';
import { openStore } from './store/index.ts';
import type { StoredEnquiry } from './store/types.ts';

const args = new Set(process.argv.slice(2));
const config = serverConfig();
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

if (args.has('--csv')) process.stdout.write(formatCsv(enquiries));
else console.log(formatListing(enquiries));
