/**
 * The visual editor's uploads until the entry that uses them is saved, in `astro dev` only. An
 * upload (./images.ts) is kept here, outside src/, where no page and no glob of the dev
 * server sees it; the editor's field shows it from here meanwhile. A Save whose files name it
 * moves it into its src/assets folder just before Keystatic writes them (./uploads-commit.ts),
 * and back if Keystatic then fails. One that no Save names (the entry reset, left, the editor
 * closed) stays here until swept: `sweep` removes what is older than a day, on each upload and on
 * the dev server's first use of the endpoint. A day, not less: Keystatic keeps an unsaved entry as
 * a draft, restored when the editor is opened again, and an upload is for the day's work.
 */
import { copyFile, mkdir, readFile, readdir, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { imageExtensions, imageFolders, imageName, type AssetFolder } from '../../domain/images.ts';

const assets = fileURLToPath(new URL('../../assets/', import.meta.url));

/**
 * In the project's .astro (Astro's own generated files, which git and `npm run build` leave
 * alone): a copy of the project (the editor's tests) starts without any.
 */
const pendingRoot = fileURLToPath(new URL('../../../.astro/editor-uploads/', import.meta.url));

/** How long an upload no Save has named is kept. */
export const PENDING_DAYS = 1;

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

/** Keeps an upload: 'wx', never over another upload of that name. */
export async function keepPending(folder: AssetFolder, file: string, bytes: Uint8Array) {
  await mkdir(join(pendingRoot, folder), { recursive: true });
  await writeFile(pendingPath(folder, file), bytes, { flag: 'wx' });
}

export const dropPending = (folder: AssetFolder, file: string) =>
  unlink(pendingPath(folder, file)).catch(() => {});

/** Removes the uploads kept longer than `PENDING_DAYS`. */
export async function sweep(now = Date.now()) {
  for (const folder of imageFolders)
    for (const file of (await pendingIn(folder)).values()) {
      try {
        const { mtimeMs } = await stat(pendingPath(folder, file));
        if (now - mtimeMs > PENDING_DAYS * 86_400_000) await rm(pendingPath(folder, file));
      } catch {}
    }
}

/** A pending upload moved into src/assets. */
export interface Committed {
  folder: AssetFolder;
  file: string;
}

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
