/**
 * The staff CLI (`npm run enquiries`, src/server/cli.ts) as staff call it, through npm: its CSV
 * export is a file with only the CSV in it, whatever npm prints around the command; a cancellation
 * queues e-mails that say the staff made it, and why. And `npm run vitals`: its answer to a wrong
 * call, and its CSV written as it is read, ended quietly by a reader that has read enough.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Bookings } from '../../src/server/booking/calls';
import { SqliteStore } from '../../src/server/store/sqlite';
import { call, enquiry, mailCallOf, vitalRecord } from '../support/records';

const run = promisify(execFile);
let dir: string;
let database: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cli-'));
  database = join(dir, 'e.sqlite');
  const store = new SqliteStore(database);
  const ada = await new Bookings(store).commit(enquiry({ email: 'ada@example.com' }), false);
  await store.desk.addNote({ enquiryId: ada.id, author: 'anna@a.example', at: 0, body: 'Rang.' });
  await store.close();
  // The store's variables only: no DATABASE_URL from the shell may send it elsewhere. And npm as
  // staff run it, printing its banner: `npm test` runs this with npm's log level silent, which the
  // npm below would inherit.
  env = { ...process.env, ENQUIRY_DB: database, DATABASE_URL: '' };
  delete env.npm_config_loglevel;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run enquiries', () => {
  it('writes the CSV alone to the file given with --out, readable by its owner alone', async () => {
    const out = join(dir, 'enquiries.csv');
    // An old export of that name, open to every user (a umask of 022 gave it that).
    writeFileSync(out, 'old', { mode: 0o644 });
    const { stdout } = await run('npm', ['run', 'enquiries', '--', '--csv', '--out', out], { env });
    expect(statSync(out).mode & 0o777).toBe(0o600);
    // npm's banner goes to stdout, and only there.
    expect(stdout).toContain('> ');
    const csv = readFileSync(out, 'utf8');
    expect(csv).toMatch(/^id,received,kind,name,email,/);
    const rows = csv.split('\r\n');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toContain('ada@example.com');
    // The members' notes too, as the desk's export has them.
    expect(rows[1]).toContain('1970-01-01T00:00:00.000Z anna@a.example: Rang.');
    expect(rows[2]).toBe('');
  });

  it('writes the listing to the file given with --out', async () => {
    const out = join(dir, 'enquiries.txt');
    await run('npm', ['run', 'enquiries', '--', '--out', out], { env });
    expect(readFileSync(out, 'utf8')).toMatch(/ada@example\.com[^]*\n$/);
    expect(statSync(out).mode & 0o777).toBe(0o600);
  });

  it('says which file it cannot write, and why, and fails', async () => {
    const cases = [
      [join(dir, 'no-such-folder', 'enquiries.csv'), 'ENOENT: no such file or directory'],
      [dir, 'EISDIR: illegal operation on a directory'],
    ];
    for (const [out, why] of cases) {
      const export_ = run('npm', ['run', '--silent', 'enquiries', '--', '--csv', '--out', out!], {
        env,
      });
      await expect(export_).rejects.toMatchObject({
        code: 1,
        stdout: '',
        stderr: `Cannot write ${out}: ${why}\n`,
      });
    }
    // A name with a line break and a terminal's escape: said on one line, the escape made harmless.
    const odd = join(dir, 'gone', 'a\nb\u001b[31m.csv');
    const export_ = run('npm', ['run', '--silent', 'enquiries', '--', '--csv', '--out', odd], {
      env,
    });
    await expect(export_).rejects.toMatchObject({
      code: 1,
      stderr: `Cannot write ${join(dir, 'gone')}/a b\uFFFD[31m.csv: ENOENT: no such file or directory\n`,
    });
  });

  it('says the store cannot be read with the store’s own reason', async () => {
    const notADatabase = join(dir, 'notes.txt');
    writeFileSync(notADatabase, 'These are not enquiries.'.repeat(100));
    const out = join(dir, 'enquiries.csv');
    const export_ = run('npm', ['run', '--silent', 'enquiries', '--', '--csv', '--out', out], {
      env: { ...env, ENQUIRY_DB: notADatabase },
    });
    await expect(export_).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^Cannot read the enquiries: file is not a database\b/),
    });
    expect(existsSync(out)).toBe(false);
  });

  it('writes clean CSV to stdout when npm is silent', async () => {
    const { stdout } = await run('npm', ['run', '--silent', 'enquiries', '--', '--csv'], { env });
    expect(stdout).toMatch(/^id,received,kind,name,email,[^]*ada@example\.com[^]*\r\n$/);
  });
});

describe('npm run enquiries -- --cancel REF --reason TEXT', () => {
  // E-mail set up as the server has it: the CLI queues the e-mails, the server sends them.
  const mailEnv = () => ({
    ...env,
    SMTP_URL: 'smtp://127.0.0.1:1',
    ENQUIRY_TO: 'sales@agency.example',
    ENQUIRY_FROM: 'website@agency.example',
  });
  const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 11) + '10:00:00Z';

  it('queues cancellations that say the staff did it, with the reason as one line', async () => {
    const store = new SqliteStore(database);
    const { id } = await new Bookings(store).commit(call(inAWeek), false);
    await store.close();
    const reason = 'Anna is ill.\r\nBcc: someone@evil.example';
    await run('npm', ['run', '--silent', 'enquiries', '--', '--cancel', id, '--reason', reason], {
      env: mailEnv(),
    });
    const after = new SqliteStore(database);
    const due = await after.claimDue(Date.now() + 60_000, 100, 0);
    await after.close();
    expect(due.map((item) => [item.kind, mailCallOf(item)?.change]).sort()).toEqual([
      ['agency-cancel', { by: 'staff', reason: 'Anna is ill. Bcc: someone@evil.example' }],
      ['prospect-cancel', { by: 'staff', reason: 'Anna is ill. Bcc: someone@evil.example' }],
    ]);
  });

  it("queues the call's write into its host's calendar too, with CALENDAR_WRITE", async () => {
    const store = new SqliteStore(database);
    const { id } = await new Bookings(store).commit(call(inAWeek), false);
    await store.close();
    // Named as the desk's card shows it ("Ref 71e44a31"), read out in capitals.
    const ref = id.slice(0, 8).toUpperCase();
    await run('npm', ['run', '--silent', 'enquiries', '--', '--cancel', ref], {
      env: { ...env, CALENDAR_WRITE: 'anna=https://anna:pw@caldav.example/anna/calls/' },
    });
    const after = new SqliteStore(database);
    const due = await after.claimDue(Date.now() + 60_000, 100, 0);
    await after.close();
    expect(due.map((item) => [item.kind, item.enquiry?.id])).toEqual([['calendar-write', id]]);
  });

  it('answers --help with its usage, and a mistyped option with what is wrong', async () => {
    const help = await run('npm', ['run', '--silent', 'enquiries', '--', '--help'], { env });
    expect(help.stdout).toMatch(/^Usage: npm run enquiries .*\n.*--cancel REF/);
    // A new time in words is no time: said so, with the form it takes.
    await expect(
      run(process.execPath, ['src/server/cli.ts', '--move', 'a1b2c3d4', 'tomorrow'], { env }),
    ).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /^Say the new time as a date and time in UTC.*T10:15:00Z\nUsage:/,
      ),
    });
    const typo = run('npm', ['run', '--silent', 'enquiries', '--', '--cvs'], { env });
    await expect(typo).rejects.toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/^There is no option --cvs\.\nUsage: npm run enquiries /),
    });
  });

  it('refuses a reason without a cancellation or a move, and one of no words', async () => {
    // A wrong call, as a mistyped option: what is wrong, the usage, exit 2.
    const listing = run('npm', ['run', '--silent', 'enquiries', '--', '--reason', 'Why'], { env });
    await expect(listing).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^--reason goes with .*\nUsage: npm run enquiries /),
    });
    const stray = run('npm', ['run', '--silent', 'enquiries', '--', '--csv', 'all'], { env });
    await expect(stray).rejects.toMatchObject({ code: 2, stdout: '' });
    // An address that is none: said, never repeated (it holds a password), nothing looked up.
    const badUrl = run(process.execPath, ['src/server/cli.ts'], {
      env: { ...env, DATABASE_URL: 'postgres//site:s3cret@db.internal/agency' },
    });
    await expect(badUrl).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        /^Cannot read the enquiries: DATABASE_URL is not a PostgreSQL address: [^\n]*\n$/,
      ),
    });
    expect(String(await badUrl.catch((error: { stderr: string }) => error.stderr))).not.toMatch(
      /s3cret|db\.internal/,
    );
    const blank = run(
      'npm',
      ['run', '--silent', 'enquiries', '--', '--cancel', 'x', '--reason', ' \r\n '],
      { env },
    );
    await expect(blank).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^Say the reason in words: .*\nUsage: npm run enquiries /),
    });
  });
});

describe('npm run vitals', () => {
  it('says what is wrong with a window it cannot report, with its usage, and exits 2', async () => {
    // A day the calendar lacks (read as 3 March by Date.parse) and a window past any date: once a
    // stack trace from the date's arithmetic.
    const cases = [
      [['--to', '2026-02-31'], '--to takes a day of the calendar, as YYYY-MM-DD.'],
      [['--days', '999999999'], '--days takes a whole number of days, 1 to 3660.'],
    ] as const;
    for (const [args, problem] of cases)
      await expect(
        run(process.execPath, ['src/server/vitals/cli.ts', ...args], { env }),
      ).rejects.toMatchObject({
        code: 2,
        stdout: '',
        stderr: `${problem}\nUsage: npm run vitals [-- --days 28] [--to YYYY-MM-DD] [--csv | --html report.html]\n`,
      });
  });

  it('writes every measurement of the window to the CSV as it reads them, and stops quietly at a reader that has read enough', async () => {
    const store = new SqliteStore(database);
    // Two pages and more of the store's 5,000, over two days of which the window takes one.
    const measurements = Array.from({ length: 12_000 }, (_, i) =>
      vitalRecord({ day: i % 4 ? '2026-11-20' : '2026-11-19', value: i }),
    );
    await store.addVitals(measurements);
    await store.close();
    const { stdout } = await run(
      process.execPath,
      ['src/server/vitals/cli.ts', '--to', '2026-11-20', '--days', '1', '--csv'],
      { env, maxBuffer: 64 * 1024 * 1024 },
    );
    const lines = stdout.split('\r\n');
    expect(lines[0]).toMatch(/^day,path,metric,value,/);
    expect(lines.at(-1)).toBe('');
    const values = lines.slice(1, -1).map((line) => Number(line.split(',')[3]));
    expect(values).toEqual(measurements.filter((_, i) => i % 4).map((m) => m.value));
    // `| head -2`: the pipe closed early ends it with no error (exit 0, nothing said).
    const { stdout: head, stderr } = await run(
      'bash',
      [
        '-c',
        `set -o pipefail; "${process.execPath}" src/server/vitals/cli.ts --to 2026-11-20 --csv | head -2`,
      ],
      { env },
    );
    expect(head.split('\n')).toHaveLength(3);
    expect(stderr).toBe('');
  });

  it('says which report file it cannot write, and why, in one line', async () => {
    // A stack trace from writeFileSync before.
    await expect(
      run(process.execPath, ['src/server/vitals/cli.ts', '--html', dir], { env }),
    ).rejects.toMatchObject({
      code: 1,
      stderr: `Cannot write ${dir}: EISDIR: illegal operation on a directory\n`,
    });
  });
});
