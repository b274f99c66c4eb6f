/**
 * The visual editor's history, as the dev server keeps it (`astro dev` only; ../editor.ts adds it):
 * every change of src/content or src/assets, a Save of the editor or a file edited by hand, is
 * recorded in git (./content-history.ts) once the writes of that save have settled, and so is the
 * content as it is found when the dev server starts. A service page that moved to another address
 * in that save leaves a redirect from its old address (src/content/data/redirects.yaml), and the
 * editor's tab is told, so that it can offer to point the links to the old address at the new one;
 * a deleted page's address is redirected where the marketer chose in the Delete dialog.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { join, relative, sep } from 'node:path';
import { dump, load } from 'js-yaml';
import type { Plugin } from 'vite';
import { pageOf, withMove, type Redirect } from '../../../domain/redirects.ts';
import { EDITOR_MEMBER_HEADER, KEYSTATIC_SAVE } from '../../../domain/editing.ts';
import { PAGE_MOVED_EVENT, type PageMove } from '../../events.ts';
import { historyOf, OWN_REPOSITORY, type Saver } from './content-history.ts';
import { EDITOR_SAVE_NOTE, type Trailer } from './lineages.ts';
import { beingWritten } from '../keystatic-writes.ts';

export const REDIRECTS_FILE = 'src/content/data/redirects.yaml';
const SERVICES = 'src/content/services';
/** Where a page to be deleted should send its visitors, chosen in the Delete dialog: file → address. */
export const DELETE_PLANS = 'delete-plans';
/** The trailer of the save that sends a page's visitors on: `<old address> <new address>`. */
export const SENDS_ON = 'Sends-on';
/** The trailer of a redirect a move removed, its page living there now: `<from> <to it had>`. */
export const REPLACED = 'Replaced';
/** How long after the last write of a save it is recorded: a Save writes an entry and its pictures. */
const SETTLE_MS = 300;
/** How long after Keystatic answers a Save the changes recorded are that Save's. */
const EDITOR_SAVE_MS = 3_000;

/** A service page's address, from its file's text. */
export const addressOf = (text: string | undefined) => {
  const slug = text && /^slug:[ \t]*['"]?([a-z0-9-]+)/m.exec(text)?.[1];
  return slug ? `/${slug}` : undefined;
};

/** An entry's name, from its file's text (its `title`, as one line of YAML). */
export const titleOf = (text: string | undefined) => {
  const title = text && /^title:[ \t]*(.+)$/m.exec(text)?.[1]?.trim();
  if (!title || /^[>|]/.test(title)) return undefined;
  return /^(['"]).*\1$/.test(title) ? title.slice(1, -1).replace(/''/g, "'") : title;
};

export async function readRedirects(root: string): Promise<Redirect[]> {
  const path = join(root, REDIRECTS_FILE);
  if (!existsSync(path)) return [];
  const data = load(await readFile(path, 'utf8')) as { entries?: Redirect[] } | null;
  return data?.entries ?? [];
}

/** Written as the editor writes a list file (js-yaml's `dump`, as src/editor/format.ts does). */
export async function writeRedirects(root: string, redirects: readonly Redirect[]) {
  const entries = redirects.map(({ from, to }) => ({ from, to }));
  await writeFile(join(root, REDIRECTS_FILE), dump({ entries }));
}

/**
 * Who is saving, from the request of a Save or of a History page's post: no one named in
 * `npm run edit`, which has no sign-in (the save is then "you", ./save-words.ts). In the live
 * site's helper (EDITOR_SOCKET set, reached only by the site's server), the server names the
 * signed-in editor (EDITOR_MEMBER_HEADER): the history records them as the save's author.
 */
export function savedBy(headers: IncomingHttpHeaders | Headers): Saver | undefined {
  if (!process.env.EDITOR_SOCKET) return undefined;
  const given =
    headers instanceof Headers ? headers.get(EDITOR_MEMBER_HEADER) : headers[EDITOR_MEMBER_HEADER];
  if (typeof given !== 'string') return undefined;
  try {
    const { name, email } = JSON.parse(decodeURIComponent(given)) as Partial<Saver>;
    return typeof name === 'string' && typeof email === 'string' ? { name, email } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The redirects once pages moved, went or came (`withMove`), with the save's note and trailers that
 * say so. A redirect from the address a page moved to or was created at is the only one removed (a
 * page lives there now): each move that removed one is told which (`replaced`), to say it.
 */
export function redirectMoves(list: readonly Redirect[], moves: PageMove[]) {
  let redirects = [...list];
  const trailers: Trailer[] = [];
  const notes: string[] = [];
  for (const move of moves) {
    const replaced = redirects.find((r) => r.from === pageOf(move.to));
    if (replaced) {
      move.replaced = { from: replaced.from, to: replaced.to };
      trailers.push({ key: REPLACED, value: `${replaced.from} ${replaced.to}` });
    }
    if (move.kind === 'created') {
      if (!replaced) continue;
      redirects = redirects.filter((r) => r !== replaced);
      notes.push(
        `${replaced.from} no longer sends visitors to ${replaced.to}: a new page is there now`,
      );
      continue;
    }
    redirects = withMove(redirects, move.from, move.to);
    trailers.push({ key: SENDS_ON, value: `${move.from} ${move.to}` });
    notes.push(
      `Visitors of ${move.from} are sent to ${move.to}` +
        (move.replaced
          ? `; ${move.to} no longer sends visitors to ${move.replaced.to}: the page is there now`
          : ''),
    );
  }
  return { redirects, note: notes.join('; '), trailers };
}

/** What the recorder tells and warns of, wherever the editor runs. */
export interface RecorderHost {
  /** A service page moved, went or came in a recorded save: the editor's tabs are told. */
  tell(move: PageMove): void;
  warn(text: string): void;
}

/** The folders whose changes are recorded, as absolute paths with a trailing separator. */
export const recordedFolders = (root: string) =>
  ['src/content', 'src/assets'].map((folder) => join(root, folder + sep));

/**
 * The recorder of the content's history in `root`, wherever the editor runs: the dev server's
 * plugin below (`npm run edit`), and the live site's helper (./recording.ts). It is told of each
 * change of a file (`changed`) and of each Save of Keystatic's (`saveBegins`, whose answer says
 * when it has been answered).
 */
export function historyRecorder(root: string, host: RecorderHost) {
  const history = historyOf(root);
  let timer: NodeJS.Timeout | undefined;
  /** The service pages that moved, went (to a page chosen for their visitors) or came in a recorded save. */
  async function movesIn(commit: string): Promise<PageMove[]> {
    const moves: PageMove[] = [];
    let planned = false;
    const plans = await history.readState<Record<string, string>>(DELETE_PLANS, {});
    const changes = await history.changesIn(commit, SERVICES);
    const added = changes.filter((change) => change.status === 'A');
    const deleted = changes.filter((change) => change.status === 'D');
    const page = async (at: string, file: string) => {
      const text = await history.textAt(at, file);
      return { address: addressOf(text), title: titleOf(text) };
    };
    // A move git did not take for a rename (the page's text changed too much): one page went and
    // one came in the same save, and nothing was planned for the one that went.
    const paired = added.length === 1 && deleted.length === 1 && !(deleted[0]!.file in plans);
    if (paired) {
      const [from, to] = [
        await page(`${commit}^`, deleted[0]!.file),
        await page(commit, added[0]!.file),
      ];
      if (from.address && to.address && from.address !== to.address)
        moves.push({ from: from.address, to: to.address, kind: 'moved', title: to.title });
    }
    for (const change of changes) {
      if (change.status === 'A') {
        // A new page: told if its address sent visitors elsewhere until now.
        const { address, title } = await page(commit, change.file);
        if (address && !paired) moves.push({ from: address, to: address, kind: 'created', title });
        continue;
      }
      const before = await page(`${commit}^`, change.before);
      if (!before.address) continue;
      if (change.status === 'D') {
        const target = plans[change.before];
        if (target && target !== before.address)
          moves.push({ from: before.address, to: target, kind: 'deleted', title: before.title });
        if (change.before in plans) planned = true;
        delete plans[change.before];
        continue;
      }
      const after = await page(commit, change.file);
      if (after.address && after.address !== before.address)
        moves.push({ from: before.address, to: after.address, kind: 'moved', title: after.title });
    }
    if (planned) await history.writeState(DELETE_PLANS, plans);
    return moves;
  }

  /** Redirects the addresses of the service pages that moved or went in a recorded save, and says so. */
  async function followMoves(commit: string) {
    const moves = await movesIn(commit);
    const { note, trailers } = redirectMoves(await readRedirects(history.root), moves);
    if (trailers.length === 0) return;
    // Written under the editor's lock, never between a Save's check and its write (../save-check.ts),
    // from the redirects as they are then. The lock is taken before the record is asked for, as a
    // restore takes it (./route.ts): a record waiting for it would hold up the restore's record.
    await history.exclusive(() =>
      history.record(note, {
        trailers,
        write: async () => {
          const now = redirectMoves(await readRedirects(history.root), moves).redirects;
          await writeRedirects(history.root, now);
        },
      }),
    );
    for (const move of moves) if (move.kind !== 'created' || move.replaced) host.tell(move);
  }

  /** Whether the changes to record include a Save of the editor (not only files changed by hand). */
  let editorSavedAt = 0;
  /** Who made the latest of them, if the editor knows. */
  let editorSaveBy: Saver | undefined;
  /**
   * The Saves of the editor under way: their files are their own, recorded once each answers, with
   * its note, never by the watcher a moment before (a slow answer lost its redirect).
   */
  let saving = 0;
  const recordSave = async () => {
    // A change recorded soon after the editor answered a Save is that Save's (Keystatic may still
    // be writing when it answers, and the watcher hears of its files later).
    const savedAt = editorSavedAt;
    const asked = Date.now();
    const fromEditor = asked - savedAt < EDITOR_SAVE_MS;
    try {
      // A change by hand waits its turn; if a Save of the editor has started by then, or has
      // answered since (its own record comes after this one: a stress run's second Save was once
      // recorded as a change outside the editor so), the files are that Save's.
      const commit = await history.record(fromEditor ? EDITOR_SAVE_NOTE : 'Saved', {
        unless: () => !fromEditor && (saving > 0 || editorSavedAt >= asked),
        ...(fromEditor && { by: editorSaveBy }),
      });
      // Unless another Save answered meanwhile: its files, still to come, are its own (two Saves
      // in one second: the second was once recorded as a change outside the editor).
      if (commit && fromEditor && editorSavedAt === savedAt) editorSavedAt = 0;
      // Nothing of it on disk yet (its files come after its answer): its claim lasts from now, not
      // from its answer, which a slow record (git, on a loaded machine) may have used up.
      if (!commit && fromEditor && editorSavedAt === savedAt) editorSavedAt = Date.now();
      // Only the editor's own moves leave a redirect: a file renamed by hand or by git (a checkout,
      // a test putting its files back) is a developer's business.
      if (commit && fromEditor) await followMoves(commit);
    } catch (error) {
      host.warn(`The content's history could not record a save: ${error}`);
    }
  };

  void history
    .record('As found when the editor started')
    .catch((error) => host.warn(`The content's history is not kept: ${error}`));
  const waiting: (() => void)[] = [];
  const settle = () => {
    clearTimeout(timer);
    if (saving === 0) timer = setTimeout(() => void recordSave(), SETTLE_MS);
  };
  // The History pages record what is waiting before they read (`flush`), once the Saves under
  // way have answered; a Save's own check does not wait for them (its own among them: it would
  // wait for itself), only for what is recorded or waiting to be.
  history.flush = (options) => {
    clearTimeout(timer);
    return saving && !options?.withinSave
      ? new Promise<void>((done) => waiting.push(done))
      : recordSave();
  };
  const folders = recordedFolders(history.root);
  return {
    history,
    /** A file changed (written, added or removed), by anyone. */
    changed(file: string) {
      if (!folders.some((folder) => file.startsWith(folder)) || beingWritten(file)) return;
      if (relative(history.root, file).split(sep).includes(OWN_REPOSITORY)) return;
      settle();
    },
    /**
     * Keystatic's Save (local mode) has begun: its files are written when it answers. The
     * function returned is called once it has answered, `ok` if it wrote; it gives the Save's
     * record, which ends once the moves it made are followed (their redirects written).
     */
    saveBegins(headers: IncomingHttpHeaders | Headers) {
      saving++;
      editorSaveBy = savedBy(headers);
      clearTimeout(timer);
      return (ok: boolean): Promise<void> => {
        saving--;
        // Its files are written by now: recorded at once, so that the History a marketer
        // opens next shows the save (its pages wait for the records under way). A Save
        // refused or cut off: what changed, if anything, is recorded as any change.
        if (ok) editorSavedAt = Date.now();
        const recorded = recordSave();
        if (saving === 0) void recorded.finally(() => waiting.splice(0).forEach((go) => go()));
        return recorded;
      };
    },
  };
}

export function editorHistory(): Plugin {
  return {
    name: 'editor:history',
    apply: 'serve',
    config: () => ({ server: { watch: { ignored: [`**/${OWN_REPOSITORY}/**`] } } }),
    configureServer(server) {
      const recorder = historyRecorder(server.config.root, {
        tell: (move) => server.environments.client.hot.send(PAGE_MOVED_EVENT, move),
        warn: (text) => server.config.logger.warn(text),
      });
      server.watcher.on('all', (_event, file) => recorder.changed(file));
      // Keystatic's Save (local mode): its files are written when it answers.
      server.middlewares.use((req, res, next) => {
        if (req.method === 'POST' && req.url?.split('?')[0] === KEYSTATIC_SAVE) {
          const answered = recorder.saveBegins(req.headers);
          res.once('close', () => void answered(res.writableFinished && res.statusCode < 300));
        }
        next();
      });
    },
  };
}
