/**
 * The files that hold visitors' data or a secret: the SQLite store with its -wal and -shm, its
 * backups, and the key files that sign links. Each is made 0600 in a folder made 0700 whatever the
 * process's umask (which only ever narrows a mode given at creation), so that no other user of the
 * machine reads one; and the server refuses to start on one that others may open (./main.ts),
 * saying the chmod that mends it.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

/** The shortest key a key file may hold: BOOKING_SECRET's and STAFF_SECRET's rule (./config.ts). */
const SHORTEST_KEY = 32;

/** The key files a folder of keys may hold: one per kind of link they sign. */
export type KeyName = 'staff' | 'booking';
const keyNames: readonly KeyName[] = ['staff', 'booking'];

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * Makes `folder`, and its missing parents, 0700; one that exists is left as it is. Not Node's
 * `recursive: true`, which loops for ever (a core at 100 %, SIGTERM unheard, nothing logged) where
 * mkdir answers ENOENT under a parent that exists, as in /proc: here each level is tried once.
 */
export function privateFolder(folder: string) {
  const make = () => {
    try {
      mkdirSync(folder, { mode: 0o700 });
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
  };
  try {
    make();
  } catch (error) {
    if (errorCode(error) !== 'ENOENT' || dirname(folder) === folder) throw error;
    privateFolder(dirname(folder));
    make();
  }
}

/**
 * Makes `path` an empty file 0600 (its folder 0700) unless it exists. SQLite then opens it as a
 * new database, and gives its -wal, -shm and -journal files the database file's own mode.
 */
export function privateFile(path: string) {
  privateFolder(dirname(path));
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
  }
}

/** The SQLite store's files: the database, its write-ahead log and its index. */
export const sqliteFiles = (path: string) => [path, `${path}-wal`, `${path}-shm`];

/** The key files of the folder of keys `folder`. */
export const keyFiles = (folder: string) => keyNames.map((name) => keyPath(folder, name));

const keyPath = (folder: string, name: KeyName) => join(folder, `${name}.key`);

export class KeyFileError extends Error {}

/** The key in `path`, or undefined if there is no such file. */
function readKey(path: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    // None there, or no folder for it (the store's place is broken: the store says so).
    if (['ENOENT', 'ENOTDIR'].includes(errorCode(error) ?? '')) return undefined;
    throw error;
  }
  const key = text.trim();
  if (key.length < SHORTEST_KEY)
    throw new KeyFileError(
      `${path} holds no key (under ${SHORTEST_KEY} characters): put back the copy you keep, or delete it to make a new key (the links signed with the old one then stop working).`,
    );
  return key;
}

/**
 * The key of `name` kept in `folder`, made now if there is none: `initial` (a key moved out of an
 * older store), else 32 random bytes in hex. Written whole under a name of its own, then linked to
 * the key's name, which fails if another process made it first: every process ends with one key.
 */
export function keyFile(folder: string, name: KeyName, initial?: string): string {
  const path = keyPath(folder, name);
  const kept = readKey(path);
  if (kept !== undefined) return kept;
  privateFolder(folder);
  const draft = join(folder, `.${name}.key.${process.pid}-${randomBytes(6).toString('hex')}`);
  const fd = openSync(draft, 'wx', 0o600);
  try {
    writeSync(fd, `${initial ?? randomBytes(32).toString('hex')}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(draft, path);
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
  } finally {
    rmSync(draft, { force: true });
  }
  return readKey(path)!;
}

/** What is wrong with a key file of `folder` (cut short, or unreadable), or undefined. */
export function keyFileProblem(folder: string): string | undefined {
  try {
    for (const name of keyNames) readKey(keyPath(folder, name));
    return undefined;
  } catch (error) {
    return error instanceof KeyFileError
      ? error.message
      : `A key file cannot be read: ${(error as Error).message}`;
  }
}

/** Of `paths`, those that exist and that the group or others may read, write or enter. */
export const openToOthers = (paths: readonly string[]) =>
  paths.filter((path) => {
    try {
      return (statSync(path).mode & 0o077) !== 0;
    } catch {
      return false;
    }
  });

/** A path as a shell takes it, quoted when it has more than plain characters. */
const shellWord = (path: string) =>
  /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;

/**
 * Why the server must not start on `files` and `folders` (those that hold visitors' data or keys):
 * the ones the group or others may open, with the chmod that mends them (and the folders of such
 * files, if open too), in one line; undefined when none is.
 */
export function exposedFiles(
  files: readonly string[],
  folders: readonly string[] = [],
): string | undefined {
  const openFiles = openToOthers(files);
  const openFolders = openToOthers(folders);
  if (openFiles.length + openFolders.length === 0) return undefined;
  const mendFolders = [
    ...new Set([...openFolders, ...openToOthers(openFiles.map((file) => dirname(file)))]),
  ];
  const fix = [
    ...(openFiles.length ? [`chmod 600 ${openFiles.map(shellWord).join(' ')}`] : []),
    ...(mendFolders.length ? [`chmod 700 ${mendFolders.map(shellWord).join(' ')}`] : []),
  ].join(' && ');
  return `${[...openFiles, ...openFolders].join(', ')} can be read by other users of this machine (visitors' data or a signing key): run \`${fix}\` as its owner, then start the server again.`;
}

/**
 * What an older store still holds of the keys that now live in key files (EnquiryStore's
 * legacySecret and forgetLegacySecrets).
 */
export interface LegacySecrets {
  legacySecret(name: KeyName): Promise<string | undefined>;
  forgetLegacySecrets(): Promise<void>;
}

/**
 * The keys that sign the staff's sign-in links and a booked call's links: each the environment's
 * (`staff`, `booking`: STAFF_SECRET, BOOKING_SECRET), else its key file in `folder`. A booking key
 * an older store kept is moved to its key file first (the links prospects hold keep working), and
 * then both keys an older store kept are deleted from it: a copy of the store signs nobody in.
 * `moved` says whether a key was moved now.
 */
export async function signingKeys(
  folder: string,
  given: { staff: string | undefined; booking: string | undefined },
  store: LegacySecrets,
): Promise<{ staff: string; booking: string; moved: boolean }> {
  const legacy = await store.legacySecret('booking');
  const moved = legacy !== undefined && readKey(keyPath(folder, 'booking')) === undefined;
  // Kept even when BOOKING_SECRET is set now, for the links it signed should that be unset.
  if (legacy !== undefined) keyFile(folder, 'booking', legacy);
  const keys = {
    staff: given.staff ?? keyFile(folder, 'staff'),
    booking: given.booking ?? keyFile(folder, 'booking'),
    moved,
  };
  await store.forgetLegacySecrets();
  return keys;
}
