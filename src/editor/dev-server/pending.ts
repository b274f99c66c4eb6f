/**
 * The visual editor's uploads until the entry that uses them is saved, in `astro dev` only. An
 * upload (./images.ts) is kept here, outside src/, where no page and no glob of the dev
 * server sees it; the editor's field shows it from here meanwhile. A Save whose files name it
 * moves it into its src/assets folder just before Keystatic writes them (./uploads-commit.ts),
 * and back if Keystatic then fails.
 *
 * One that no Save names stays as long as a draft names it: Keystatic keeps an unsaved entry in the
 * browser as a draft, restored when the entry is opened again, however much later. So an upload is
 * held by the browser that sent it (`holds`, by an id the browser keeps), and each time the editor
 * is opened, that browser says which uploads its drafts still name (`holdFor`): the others are let
 * go, and swept a day after (`sweep`, on each upload and on the dev server's first use of the
 * endpoint): a day, for an entry reset by mistake and typed again.
 */
import {
  copyFile,
  mkdir,
  readFile,
  readdir,
  rename,
  rm,
  stat,
  unlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';
import { contentPath } from './roots.ts';
import { imageExtensions, imageFolders, imageName, type AssetFolder } from '../../domain/images.ts';

const assets = contentPath('src/assets/');

/**
 * In the project's .astro (Astro's own generated files, which git and `npm run build` leave
 * alone): a copy of the project (the editor's tests) starts without any.
 */
const pendingRoot = contentPath('.astro/editor-uploads/');

/** How long an upload no Save and no draft names is kept. */
export const PENDING_DAYS = 1;

/** A browser's id, as the editor's tab keeps it (src/editor/browser/drafts.ts). */
export const BROWSER_ID = /^[a-z0-9-]{8,64}$/;

/** The uploads each browser's drafts name: browser id → 'folder/file' of each. */
type Holds = Record<string, string[]>;
const holdsPath = () => join(pendingRoot, 'holds.json');

async function readHolds(): Promise<Holds> {
  try {
    const holds = JSON.parse(await readFile(holdsPath(), 'utf8')) as unknown;
    return holds && typeof holds === 'object' && !Array.isArray(holds) ? (holds as Holds) : {};
  } catch {
    return {};
  }
}

async function writeHolds(holds: Holds) {
  await mkdir(pendingRoot, { recursive: true });
  // Written whole, then put in place: a sweep never reads half of it.
  await writeFile(`${holdsPath()}.new`, JSON.stringify(holds));
  await rename(`${holdsPath()}.new`, holdsPath());
}

/** One write of the holds at a time, in the order asked. */
let holding: Promise<unknown> = Promise.resolve();
const withHolds = <T>(change: (holds: Holds) => Promise<T> | T) => {
  const done = holding.then(async () => {
    const holds = await readHolds();
    const result = await change(holds);
    await writeHolds(holds);
    return result;
  });
  holding = done.catch(() => {});
  return done;
};

/** A pending upload, as the holds name it. */
export interface Upload {
  folder: AssetFolder;
  file: string;
}
const key = ({ folder, file }: Upload) => `${folder}/${file}`;

/** Holds an upload for the browser that sent it, until that browser's drafts no longer name it. */
export const hold = (browser: string, upload: Upload) =>
  withHolds((holds) => {
    holds[browser] = [...new Set([...(holds[browser] ?? []), key(upload)])];
  });

/**
 * What a browser's drafts name now, of the pending uploads (`named`): those it held and no longer
 * names are let go, their day counted from now.
 */
export const holdFor = (browser: string, named: readonly Upload[]) =>
  withHolds(async (holds) => {
    const now = new Set(named.map(key));
    const others = new Set(
      Object.entries(holds).flatMap(([id, held]) => (id === browser ? [] : held)),
    );
    for (const released of holds[browser] ?? [])
      if (!now.has(released) && !others.has(released)) {
        const at = new Date();
        await utimes(join(pendingRoot, released), at, at).catch(() => {});
      }
    if (now.size) holds[browser] = [...now];
    else delete holds[browser];
  });

export const pendingPath = (folder: AssetFolder, file: string) => join(pendingRoot, folder, file);
export const assetPath = (folder: AssetFolder, file: string) => join(assets, folder, file);

const extensionOf = (file: string) => /\.[^.]*$/.exec(file)?.[0].toLowerCase() ?? '';

/** The pending uploads of a folder by the name content gives them (without the extension). */
export async function pendingIn(folder: AssetFolder): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  let names: string[] = [];
  try {
    names = await readdir(join(pendingRoot, folder));
  } catch {}
  for (const file of names.sort()) {
    const extension = extensionOf(file);
    const name = file.slice(0, -extension.length);
    // Only what an upload is named (a file put here by hand with another name is not one).
    if (imageExtensions[folder].includes(extension) && imageName.regex.test(name))
      files.set(name, file);
  }
  return files;
}

export async function readPending(folder: AssetFolder, file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(pendingPath(folder, file));
  } catch {
    return undefined;
  }
}

/**
 * Keeps an upload: 'wx', never over another upload of that name; held for `browser`, the one that
 * sent it, if known.
 */
export async function keepPending(
  folder: AssetFolder,
  file: string,
  bytes: Uint8Array,
  browser?: string,
) {
  await mkdir(join(pendingRoot, folder), { recursive: true });
  await writeFile(pendingPath(folder, file), bytes, { flag: 'wx' });
  if (browser) await hold(browser, { folder, file });
}

export const dropPending = (folder: AssetFolder, file: string) =>
  unlink(pendingPath(folder, file)).catch(() => {});

/** Every pending upload, of every folder. */
export async function allPending(): Promise<(Upload & { name: string })[]> {
  const all = [];
  for (const folder of imageFolders)
    for (const [name, file] of await pendingIn(folder)) all.push({ folder, file, name });
  return all;
}

/** Removes the uploads kept longer than `PENDING_DAYS` that no browser's draft holds. */
export async function sweep(now = Date.now()) {
  await holding;
  const held = new Set(Object.values(await readHolds()).flat());
  for (const folder of imageFolders)
    for (const file of (await pendingIn(folder)).values()) {
      if (held.has(key({ folder, file }))) continue;
      try {
        const { mtimeMs } = await stat(pendingPath(folder, file));
        if (now - mtimeMs > PENDING_DAYS * 86_400_000) await rm(pendingPath(folder, file));
      } catch {}
    }
}

/** A pending upload moved into src/assets. */
export type Committed = Upload;

/**
 * Moves into src/assets each pending upload whose name one of `texts` (the files a Save writes)
 * holds as a word of its own. Never over a file of src/assets (the upload then stays pending).
 */
export async function commitNamedIn(texts: readonly string[]): Promise<Committed[]> {
  const committed: Committed[] = [];
  for (const folder of imageFolders)
    for (const [name, file] of await pendingIn(folder)) {
      const named = new RegExp(`(?<![a-z0-9-])${name}(?![a-z0-9-])`);
      if (!texts.some((text) => named.test(text))) continue;
      try {
        // A copy, then the pending file removed: never over a file of src/assets.
        await copyFile(pendingPath(folder, file), assetPath(folder, file), constants.COPYFILE_EXCL);
        await unlink(pendingPath(folder, file));
        committed.push({ folder, file });
      } catch {}
    }
  return committed;
}

/** Puts committed uploads back where they were (Keystatic did not save after all). */
export async function uncommit(committed: readonly Committed[]) {
  for (const { folder, file } of committed) {
    try {
      await mkdir(join(pendingRoot, folder), { recursive: true });
      await copyFile(assetPath(folder, file), pendingPath(folder, file), constants.COPYFILE_EXCL);
      await unlink(assetPath(folder, file));
    } catch {}
  }
}
