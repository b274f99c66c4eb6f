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
import type { Plugin, ViteDevServer } from 'vite';
import { withMove, type Redirect } from '../../../domain/redirects.ts';
import { PAGE_MOVED_EVENT } from '../../events.ts';
import { historyOf, OWN_REPOSITORY, type ContentHistory, type Saver } from './content-history.ts';

export const REDIRECTS_FILE = 'src/content/data/redirects.yaml';
const SERVICES = 'src/content/services';
/** Where a page to be deleted should send its visitors, chosen in the Delete dialog: file → address. */
export const DELETE_PLANS = 'delete-plans';
/** How long after the last write of a save it is recorded: a Save writes an entry and its pictures. */
const SETTLE_MS = 300;
/** How long after Keystatic answers a Save the changes recorded are that Save's. */
const EDITOR_SAVE_MS = 3_000;

/** A service page's address, from its file's text. */
export const addressOf = (text: string | undefined) => {
  const slug = text && /^slug:[ \t]*['"]?([a-z0-9-]+)/m.exec(text)?.[1];
  return slug ? `/${slug}` : undefined;
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
 * Who is saving, from the request of a Save or of a History page's post: no one named while the
 * editor has no sign-in (the save is then "you", ./save-words.ts). Once editors sign in, their
 * session names the staff member here, the history records them as the save's author, and History
 * says their name.
 */
export function savedBy(_headers: IncomingHttpHeaders | Headers): Saver | undefined {
  return undefined;
}

export function editorHistory(): Plugin {
  let history: ContentHistory;
  let server: ViteDevServer;
  let timer: NodeJS.Timeout | undefined;

  /** Redirects the addresses of the service pages that moved or went in a recorded save. */
  async function followMoves(commit: string) {
    const root = history.root;
    const moved: { from: string; to: string }[] = [];
    const plans = await history.readState<Record<string, string>>(DELETE_PLANS, {});
    let plansChanged = false;
    const changes = await history.changesIn(commit, SERVICES);
    const added = changes.filter((change) => change.status === 'A');
    const deleted = changes.filter((change) => change.status === 'D');
    // A move git did not take for a rename (the page's text changed too much): one page went and
    // one came in the same save, and nothing was planned for the one that went.
    if (added.length === 1 && deleted.length === 1 && !(deleted[0]!.file in plans)) {
      const [from, to] = await Promise.all([
        history.textAt(`${commit}^`, deleted[0]!.file).then(addressOf),
        history.textAt(commit, added[0]!.file).then(addressOf),
      ]);
      if (from && to && from !== to) moved.push({ from, to });
    }
    for (const change of changes) {
      if (change.status === 'A') continue;
      const before = addressOf(await history.textAt(`${commit}^`, change.before));
      if (!before) continue;
      if (change.status === 'D') {
        const target = plans[change.before];
        if (target && target !== before) moved.push({ from: before, to: target });
        if (change.before in plans) {
          delete plans[change.before];
          plansChanged = true;
        }
        continue;
      }
      const after = addressOf(await history.textAt(commit, change.file));
      if (after && after !== before) moved.push({ from: before, to: after });
    }
    if (plansChanged) await history.writeState(DELETE_PLANS, plans);
    if (moved.length === 0) return;
    // Not between a Save's check and its write (../save-check.ts).
    await history.exclusive(async () => {
      let redirects = await readRedirects(root);
      for (const { from, to } of moved) redirects = withMove(redirects, from, to);
      await writeRedirects(root, redirects);
    });
    await history.record(
      moved.map(({ from, to }) => `Visitors of ${from} are sent to ${to}`).join('; '),
    );
    for (const move of moved) server.environments.client.hot.send(PAGE_MOVED_EVENT, move);
  }

  /** Whether the changes to record include a Save of the editor (not only files changed by hand). */
  let editorSavedAt = 0;
  /** Who made that Save, if the editor knows. */
  let editorSaveBy: Saver | undefined;
  /**
   * Keystatic's Saves not answered yet: a change heard meanwhile is theirs (a second Save right
   * after a first was recorded as a change outside the editor, by the first's late watcher).
   */
  let savesUnderWay = 0;
  const recordSave = async () => {
    // A change recorded soon after the editor answered a Save is that Save's (Keystatic may still
    // be writing when it answers, and the watcher hears of its files later), and so is one heard
    // while a Save is being written.
    const fromEditor = savesUnderWay > 0 || Date.now() - editorSavedAt < EDITOR_SAVE_MS;
    try {
      const commit = fromEditor
        ? await history.record('Saved in the editor', editorSaveBy)
        : await history.record('Saved');
      if (commit && fromEditor) editorSavedAt = 0;
      // Only the editor's own moves leave a redirect: a file renamed by hand or by git (a checkout,
      // a test putting its files back) is a developer's business.
      if (commit && fromEditor) await followMoves(commit);
    } catch (error) {
      server.config.logger.warn(`The content's history could not record a save: ${error}`);
    }
  };

  return {
    name: 'editor:history',
    apply: 'serve',
    config: () => ({ server: { watch: { ignored: [`**/${OWN_REPOSITORY}/**`] } } }),
    configureServer(devServer) {
      server = devServer;
      history = historyOf(server.config.root);
      const recorded = ['src/content', 'src/assets'].map((folder) =>
        join(history.root, folder + sep),
      );
      void history
        .record('As found when the editor started')
        .catch((error) => server.config.logger.warn(`The content's history is not kept: ${error}`));
      const settle = () => {
        clearTimeout(timer);
        timer = setTimeout(() => void recordSave(), SETTLE_MS);
      };
      // The History pages record what is waiting before they read (`flush`).
      history.flush = () => {
        clearTimeout(timer);
        return recordSave();
      };
      server.watcher.on('all', (_event, file) => {
        if (!recorded.some((folder) => file.startsWith(folder))) return;
        if (relative(history.root, file).split(sep).includes(OWN_REPOSITORY)) return;
        settle();
      });
      // Keystatic's Save (local mode): its files are written when it answers.
      server.middlewares.use((req, res, next) => {
        if (req.method === 'POST' && req.url?.split('?')[0] === '/api/keystatic/update') {
          savesUnderWay++;
          editorSaveBy = savedBy(req.headers);
          // After 'finish' when it answered, alone when the connection went first.
          res.once('close', () => savesUnderWay--);
          res.once('finish', () => {
            if (res.statusCode >= 300) return;
            // Its files are written by now: recorded at once, so that the History a marketer
            // opens next shows the save (its pages wait for the records under way).
            clearTimeout(timer);
            editorSavedAt = Date.now();
            editorSaveBy = savedBy(req.headers);
            void recordSave();
          });
        }
        next();
      });
    },
  };
}
