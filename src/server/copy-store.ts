/**
 * `npm run store:copy`: copies the SQLite store (ENQUIRY_DB, or `-- --from FILE`) into an empty
 * PostgreSQL database (DATABASE_URL, or `-- --to URL`), to move the site onto PostgreSQL
 * (docs/deploying.md, "Moving from SQLite to PostgreSQL"). Prints each table's rows on both sides;
 * exits 1 when it refuses, fails or the counts differ (nothing is then written), 2 on a wrong call.
 * The work is ./store/copy-to-postgres.ts; this file is the arguments and the messages, none of
 * which shows the URL (its password) or a visitor's data.
 */
import { commandArgs, WRONG_CALL, wrongCall } from './command-args.ts';
import { databaseUrlProblem, serverConfig } from './config.ts';
import { redact } from './log.ts';
import { terminalText } from './safe-text.ts';
import { CopyError, copyToPostgres, type TableCount } from './store/copy-to-postgres.ts';

const USAGE =
  'Usage: npm run store:copy [-- --from FILE] [--to URL]: the SQLite store (ENQUIRY_DB) into the empty PostgreSQL database of DATABASE_URL.';

const fail = (message: string, code = 1): never => {
  console.error(message);
  process.exit(code);
};

const { values } = commandArgs(USAGE, {
  options: { from: { type: 'string' }, to: { type: 'string' } },
});
const config = serverConfig();
const from = values.from ?? config.databasePath;
const to = values.to ?? config.databaseUrl;
if (!to) wrongCall('Say where to: set DATABASE_URL (or --to URL).', USAGE);

// The URL is never repeated, whatever it holds.
if (databaseUrlProblem(to))
  fail(
    'The target is not a PostgreSQL URL (postgres://USER:PASSWORD@HOST:5432/DATABASE).',
    WRONG_CALL,
  );

const cell = (n: number | undefined) => (n === undefined ? '-' : String(n));

function table(counts: TableCount[]) {
  const rows = [
    ['table', 'SQLite', 'PostgreSQL'],
    ...counts.map((c) => [c.table, cell(c.source), String(c.target)]),
  ];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => row[i]!.length)));
  for (const [name, source, target] of rows)
    console.log(
      `  ${name!.padEnd(widths[0]!)}  ${source!.padStart(widths[1]!)}  ${target!.padStart(widths[2]!)}`,
    );
}

const source = `the SQLite file ${terminalText(from)}`;
try {
  const result = await copyToPostgres(from, to);
  console.log(
    `${result.matches ? 'Copied' : 'Not copied'}: ${source} into ${terminalText(result.target)}.`,
  );
  table(result.tables);
  if (!result.matches) {
    const differ = result.tables.filter((c) => c.target !== (c.source ?? 0)).map((c) => c.table);
    fail(
      `The counts differ in ${differ.join(', ')}: nothing was written (the copy was rolled back).`,
    );
  }
  for (const { table, cleaned } of result.tables)
    if (cleaned)
      console.log(
        `${table}: ${cleaned} ${cleaned === 1 ? 'value' : 'values'} held a NUL character, which PostgreSQL cannot keep: each is now U+FFFD.`,
      );
  const rows = result.tables.reduce((sum, c) => sum + (c.source ?? 0), 0);
  console.log(
    `${rows} rows; every table holds as many as its source. The SQLite file is unchanged.`,
  );
} catch (error) {
  // A refusal says what to do; anything else is the database's own message, redacted.
  if (error instanceof CopyError) fail(redact(terminalText(error.message)));
  fail(
    `The copy failed; no row was copied: ${redact(terminalText((error as Error).message ?? String(error)))}`,
  );
}
