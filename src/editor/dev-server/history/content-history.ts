/**
 * The content's history, kept in git, for the visual editor (`astro dev` only): every state of
 * src/content and src/assets the dev server has seen is a commit on a ref of its own,
 * `refs/editor/history`, made with git's plumbing through an index of its own, so that it never
 * touches the branch, the staging area or the files a developer works on. Its first commit has the
 * checked-out commit as parent, so an entry's history runs on into the project's own commits. A
 * project that is not a git repository (a downloaded copy, the editor's tests' copies) keeps the
 * same history in a repository of its own, `.editor-history/` beside src/.
 *
 * The dev server's watcher (./recorder.ts) records, and the editor's history pages (./route.ts)
 * read and record restores, through one instance (`historyOf`).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, posix, resolve } from 'node:path';
import { runGit } from './git-runner.ts';
import {
  trailersOf,
  walkLineages,
  type DeletedBy,
  type Lineage,
  type LoggedChange,
  type LoggedSave,
  type Trailer,
} from './lineages.ts';
import { GIT_SETTINGS } from '../../../shared/git-settings.ts';
import { EDITOR_HISTORY_AUTHOR, EDITOR_HISTORY_REF } from '../../../domain/editing.ts';

export const HISTORY_REF = EDITOR_HISTORY_REF;
/** Where a project that has no git repository of its own keeps its history. */
export const OWN_REPOSITORY = '.editor-history';
/** What a save covers: the content and the pictures it names. */
const RECORDED = ['src/content', 'src/assets'];
/** The editor's name on its commits: a save is the marketer's, whatever git's configuration says. */
const AUTHOR = { ...EDITOR_HISTORY_AUTHOR };
export const EDITOR_AUTHOR: Readonly<Saver> = AUTHOR;

/**
 * Who made a save, as its commit names them (its author): the editor's own name while editors do
 * not sign in, a staff member's once they do (`record`'s `by`), a developer's for their commits.
 */
export interface Saver {
  name: string;
  email: string;
}

export interface Version {
  commit: string;
  /** When it was saved, in ms since the epoch. */
  savedAt: number;
  /** The file's path at that version (an entry renamed since had another). */
  file: string;
  /** What the save said: "Saved", "Restored …", or a developer's commit message. */
  note: string;
  /** Who saved it: its commit's author. */
  by: Saver;
  /** Whether the editor recorded it (else it is a commit of the project's own git history). */
  editor: boolean;
  /** The text of the file at that version. */
  blob: string;
}

export interface Change {
  status: 'A' | 'M' | 'D' | 'R' | 'T';
  file: string;
  /** Its path before: differs from `file` for a rename. */
  before: string;
}

export interface DeletedEntry {
  file: string;
  deletedAt: number;
  /** The commit whose parent holds the last version. */
  commit: string;
  /** Who deleted it, as that commit names them (its author, as a version's `by`). */
  deletedBy: DeletedBy;
  /** Its saved versions, newest first. */
  versions: Omit<Version, 'blob'>[];
}

/** A save as the editor reads it back: its note and what it says beyond (`Key: value` lines). */
export type Save = Omit<LoggedSave, 'changes'>;

/** What a save writes besides the content's files: `Key: value` lines after its note. */
export interface RecordOptions {
  trailers?: readonly Trailer[];
  /** Who made it, if someone signed in did: its commit's author (else the editor's own name). */
  by?: Saver;
  /**
   * Writes the save's files first, in turn with the other records: nothing else is recorded
   * between these writes and this record (the watcher's record of them waits).
   */
  write?: () => Promise<void>;
  /**
   * Whether the record is no longer wanted (another will take its files): asked as its turn comes,
   * and again before it commits, since a Save may begin while it reads the files.
   */
  unless?: () => boolean;
}

/** A commit, or its first parent (`…^`). */
/** How a version is written back: as it was (see `restore`). */
const keep = (older: string, _now: string) => older;

const COMMIT = /^[0-9a-f]{40,64}\^?$/;

/** A save as `parseSave` reads it: commit, time, author, committer, note, then the body. */
const SAVE_FORMAT = '%H%x1f%ct%x1f%an%x1f%ae%x1f%ce%x1f%s%x1f%b%x1d';

/**
 * Runs the steps it is given one at a time, in the order given: each once the one before has ended,
 * whether it succeeded or not. A step is called with nothing: a Save's write is Astro's `next`, which
 * takes an argument as a rewrite.
 */
function oneAtATime() {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(step: () => Promise<T>): Promise<T> => {
    const run = last.then(() => step());
    last = run.catch(() => {});
    return run;
  };
}

export class ContentHistory {
  readonly root: string;
  readonly #env: NodeJS.ProcessEnv;
  #ready: Promise<boolean> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  /** Whether the project is a git repository of its own (else OWN_REPOSITORY). */
  #projectGit = false;

  constructor(root: string) {
    this.root = resolve(root);
    this.#env = {
      ...process.env,
      GIT_AUTHOR_NAME: AUTHOR.name,
      GIT_AUTHOR_EMAIL: AUTHOR.email,
      GIT_COMMITTER_NAME: AUTHOR.name,
      GIT_COMMITTER_EMAIL: AUTHOR.email,
      // Never a prompt, a pager or the user's hooks and templates.
      GIT_TERMINAL_PROMPT: '0',
      GIT_PAGER: 'cat',
      LC_ALL: 'C',
      ...GIT_SETTINGS,
    };
    for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE']) delete this.#env[name];
  }

  async #git(
    args: string[],
    options: { env?: NodeJS.ProcessEnv; input?: string } = {},
  ): Promise<string> {
    const answer = await runGit({
      args,
      cwd: this.root,
      env: { ...this.#env, ...options.env },
      input: options.input,
    });
    if (answer.error) throw new Error(`git ${args[0]}: ${answer.stderr.trim() || answer.error}`);
    return answer.stdout;
  }

  /** Whether history can be kept: git is installed; the repository it uses exists once this resolves. */
  ready(): Promise<boolean> {
    return (this.#ready ??= (async () => {
      try {
        const top = (await this.#git(['rev-parse', '--show-toplevel'])).trim();
        // Only the project's own repository: not one the project happens to sit inside unrelated.
        this.#projectGit = existsSync(join(top, '.git')) && this.root.startsWith(top);
        if (this.#projectGit) return true;
      } catch {
        // Not a repository, or no git: an own repository, if git runs at all.
      }
      try {
        const own = join(this.root, OWN_REPOSITORY);
        if (!existsSync(join(own, 'HEAD'))) await this.#git(['init', '--quiet', '--bare', own]);
        this.#env.GIT_DIR = own;
        this.#env.GIT_WORK_TREE = this.root;
        return true;
      } catch {
        return false;
      }
    })());
  }

  /** The commit the history ends at, if any. */
  async #tip(ref = HISTORY_REF): Promise<string | undefined> {
    try {
      return (await this.#git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).trim();
    } catch {
      return undefined;
    }
  }

  /**
   * Records the content as it is now, if it differs from the last state recorded; `note` says why.
   * Saves are recorded one at a time, in order.
   */
  record(note: string, options: RecordOptions = {}): Promise<string | undefined> {
    // A developer's git command may hold the repository's lock a moment: tried again.
    const attempt = async (left: number): Promise<string | undefined> => {
      try {
        return await this.#record(note, options.trailers ?? [], options.by, options.unless);
      } catch (error) {
        if (left === 0) throw error;
        await new Promise((done) => setTimeout(done, 100));
        return attempt(left - 1);
      }
    };
    const run = this.#queue.then(async () => {
      if (options.unless?.()) return undefined;
      await options.write?.();
      return attempt(3);
    });
    this.#queue = run.catch(() => {});
    return run;
  }

  /**
   * Records what is waiting to be recorded, and resolves once it is: the dev server's watcher sets
   * its own (a save's writes are recorded a moment after they settle); by default, the records
   * asked for so far. From within a Save (`withinSave`: its check, ../save-check.ts), it does not
   * wait for the Saves under way, that one among them (it would wait for itself).
   */
  flush: (options?: { withinSave?: boolean }) => Promise<unknown> = () => this.#queue;

  async #record(
    note: string,
    trailers: readonly Trailer[],
    by?: Saver,
    unless?: () => boolean,
  ): Promise<string | undefined> {
    if (!(await this.ready())) return undefined;
    const gitDir = (await this.#git(['rev-parse', '--absolute-git-dir'])).trim();
    const env = { GIT_INDEX_FILE: join(gitDir, 'editor-history-index') };
    const tip = await this.#tip();
    const head = this.#projectGit ? await this.#tip('HEAD') : undefined;
    const base = tip ?? head;
    const tree = await this.savedWhole(async () => {
      await this.#git(base ? ['read-tree', base] : ['read-tree', '--empty'], { env });
      const present = RECORDED.filter((path) => existsSync(join(this.root, path)));
      await this.#git(['add', '--all', '--', ...present], { env });
      return (await this.#git(['write-tree'], { env })).trim();
    });
    if (base && tree === (await this.#git(['rev-parse', `${base}^{tree}`])).trim())
      return undefined;
    // A Save that began while the files were read (git, slow on a loaded machine) wrote some of
    // them: its own record takes them, with its author and its moves.
    if (unless?.()) return undefined;
    const parents = base ? [base] : [];
    // The developer committed or pulled since: their commits join the history too.
    if (tip && head && !(await this.#isAncestor(head, tip))) parents.push(head);
    // The save's author, if someone signed in made it; the editor commits it either way.
    const author = by && { GIT_AUTHOR_NAME: by.name, GIT_AUTHOR_EMAIL: by.email };
    const body = trailers.map(({ key, value }) => `${key}: ${value}`).join('\n');
    const message = ['-m', note, ...(body ? ['-m', body] : [])];
    const commit = (
      await this.#git(['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), ...message], {
        ...(author && { env: author }),
      })
    ).trim();
    await this.#git(['update-ref', HISTORY_REF, commit, ...(tip ? [tip] : [])]);
    return commit;
  }

  /** Where the history is read from: its ref, or the checked-out commit before any save. */
  async #start(): Promise<string | undefined> {
    if (!(await this.ready())) return undefined;
    return (await this.#tip()) ?? (this.#projectGit ? await this.#tip('HEAD') : undefined);
  }

  async #isAncestor(ancestor: string, of: string) {
    try {
      await this.#git(['merge-base', '--is-ancestor', ancestor, of]);
      return true;
    } catch {
      return false;
    }
  }

  /** A path of the project as git's pathspecs and `commit:path` take it, from the project's folder. */
  static #spec = (file: string) => `./${file}`;

  /**
   * The saved versions of the entry a content file is, newest first, following it through renames:
   * the entry there now, else the last one deleted there (./lineages.ts tells entries apart).
   */
  async versions(file: string, limit = 100): Promise<Version[]> {
    checkContentPath(file);
    const { live, gone } = await this.lineages(posix.dirname(file));
    const lineage = live.get(file) ?? gone.findLast((l) => l.file === file);
    return newestFirst(lineage, limit);
  }

  /**
   * Every entry of a folder through the history: those there now by their file, and those deleted
   * and not back, in the order they went (./lineages.ts).
   */
  async lineages(folder: string): Promise<{ live: Map<string, Lineage>; gone: Lineage[] }> {
    checkContentPath(folder);
    const start = await this.#start();
    if (!start) return { live: new Map(), gone: [] };
    const out = await this.#git([
      'log',
      '--first-parent',
      '--diff-merges=first-parent',
      '--reverse',
      '-M',
      '--raw',
      '--no-abbrev',
      `--format=%x1e${SAVE_FORMAT}`,
      '--relative',
      start,
      '--',
      ContentHistory.#spec(folder),
    ]);
    return walkLineages(out.split('\x1e').slice(1).map(parseSave));
  }

  /** A recorded save, if `commit` is one. */
  async save(commit: string): Promise<Save | undefined> {
    if (!COMMIT.test(commit)) return undefined;
    try {
      const out = await this.#git(['log', '-1', `--format=${SAVE_FORMAT}`, commit]);
      return parseSave(out);
    } catch {
      return undefined;
    }
  }

  /** The latest saves, newest first (the history's straight line: its first parents). */
  async latestSaves(limit: number): Promise<Save[]> {
    const start = await this.#start();
    if (!start) return [];
    const out = await this.#git([
      'log',
      '--first-parent',
      `--max-count=${limit}`,
      `--format=%x1e${SAVE_FORMAT}`,
      start,
    ]);
    return out.split('\x1e').slice(1).map(parseSave);
  }

  /** The saves after `commit`, oldest first (the history's straight line: its first parents). */
  async savesAfter(commit: string, limit = 500): Promise<Save[]> {
    const start = await this.#start();
    if (!start || !COMMIT.test(commit)) return [];
    const out = await this.#git([
      'log',
      '--first-parent',
      `--max-count=${limit}`,
      `--format=%x1e${SAVE_FORMAT}`,
      `${commit}..${start}`,
    ]);
    return out.split('\x1e').slice(1).map(parseSave).reverse();
  }

  /** The latest saves of any content file, newest first: one line per file a save changed. */
  async recentSaves(limit = 15): Promise<Omit<Version, 'blob'>[]> {
    const start = await this.#start();
    if (!start) return [];
    const saves = await this.#log(start, 'src/content', [`--max-count=${limit}`, '--name-only']);
    return saves.flatMap(({ lines, ...save }) => lines.map((file) => ({ ...save, file })));
  }

  /** The text of a file at a commit, or undefined if the commit has no such file. */
  async textAt(commit: string, file: string): Promise<string | undefined> {
    if (!COMMIT.test(commit)) return undefined;
    checkContentPath(file);
    try {
      return await this.#git(['show', `${commit}:${ContentHistory.#spec(file)}`]);
    } catch {
      return undefined;
    }
  }

  async blobOf(commit: string, file: string): Promise<string | undefined> {
    try {
      return (await this.#git(['rev-parse', `${commit}:${ContentHistory.#spec(file)}`])).trim();
    } catch {
      return undefined;
    }
  }

  /** The blob git would store for the file as it is on disk now; undefined if there is none. */
  async currentBlob(file: string): Promise<string | undefined> {
    checkContentPath(file);
    if (!existsSync(join(this.root, file))) return undefined;
    return (await this.#git(['hash-object', '--', file])).trim();
  }

  /**
   * The entries of a folder (src/content/services) deleted and not back since, newest deletion
   * first: whatever file later took the path of one, it is still listed (./lineages.ts). A rename
   * is not a deletion.
   */
  async deleted(folder: string): Promise<DeletedEntry[]> {
    const { gone } = await this.lineages(folder);
    return gone
      .map(({ file, deletion, versions }, order) => ({
        file,
        deletedAt: deletion!.deletedAt,
        commit: deletion!.commit,
        deletedBy: { note: deletion!.note, by: deletion!.by, editor: deletion!.editor },
        versions: newestFirst({ versions }, 100).map(({ blob: _, ...version }) => version),
        order,
      }))
      .sort((a, b) => b.deletedAt - a.deletedAt || b.order - a.order)
      .map(({ order: _, ...entry }) => entry);
  }

  /** `git log` of the history under a path, newest first: each commit with the lines git adds. */
  async #log(start: string, path: string, options: string[]) {
    const out = await this.#git([
      'log',
      ...options,
      '--format=%x1e%H%x1f%ct%x1f%an%x1f%ae%x1f%ce%x1f%s',
      '--relative',
      start,
      '--',
      ContentHistory.#spec(path),
    ]);
    return out
      .split('\x1e')
      .slice(1)
      .map((record) => {
        const [head = '', ...lines] = record.split('\n');
        const [commit = '', time = '0', name = '', email = '', committer = '', note = ''] =
          head.split('\x1f');
        return {
          commit,
          savedAt: Number(time) * 1000,
          note,
          by: { name, email },
          editor: committer === AUTHOR.email,
          lines: lines.map((line) => line.trim()).filter(Boolean),
        };
      });
  }

  /**
   * The changes from the file `to` as it is now to the version of `from` at `commit`, as `restore`
   * would write it: a unified diff's hunks.
   */
  async changesTo(commit: string, from: string, to = from, adjust = keep): Promise<string> {
    const older = await this.textAt(commit, from);
    if (older === undefined) throw new Error(`${from} has no version ${commit}`);
    const now = existsSync(join(this.root, to)) ? await readFile(join(this.root, to), 'utf8') : '';
    // git's own diff of two texts, by their blobs: no temporary files.
    const [nowBlob, olderBlob] = await Promise.all(
      [now, adjust(older, now)].map(async (text) =>
        (await this.#git(['hash-object', '-w', '--stdin'], { input: text })).trim(),
      ),
    );
    if (nowBlob === olderBlob) return '';
    const diff = await this.#git(['diff', '--no-color', '--unified=3', nowBlob!, olderBlob!]);
    // Drop git's header (diff --git, index, ---, +++): the page names the file itself.
    return diff.slice(diff.indexOf('\n@@') + 1);
  }

  /** What a recorded commit changed under `folder`: each file added, modified, deleted or renamed. */
  async changesIn(commit: string, folder: string): Promise<Change[]> {
    checkContentPath(folder);
    if (!COMMIT.test(commit)) return [];
    const out = await this.#git([
      'diff-tree',
      '-r',
      '-M',
      '--root',
      '--name-status',
      '--relative',
      '-z',
      ...((await this.#hasParent(commit)) ? [`${commit}^`] : []),
      commit,
      '--',
      ContentHistory.#spec(folder),
    ]);
    const fields = out.split('\0').filter(Boolean);
    const changes: Change[] = [];
    for (let i = 0; i < fields.length;) {
      const status = fields[i++]!;
      if (status.startsWith('R') || status.startsWith('C'))
        changes.push({ status: 'R', before: fields[i++]!, file: fields[i++]! });
      else {
        const file = fields[i++]!;
        changes.push({ status: status[0] as Change['status'], before: file, file });
      }
    }
    return changes;
  }

  async #hasParent(commit: string) {
    try {
      await this.#git(['rev-parse', '--verify', '--quiet', `${commit}^`]);
      return true;
    } catch {
      return false;
    }
  }

  /** A small JSON file of the editor's, kept with the history (not in the project's files). */
  async readState<T>(name: string, fallback: T): Promise<T> {
    if (!(await this.ready())) return fallback;
    try {
      return JSON.parse(await readFile(await this.#statePath(name), 'utf8')) as T;
    } catch {
      return fallback;
    }
  }

  async writeState(name: string, value: unknown): Promise<void> {
    if (!(await this.ready())) return;
    await writeFile(await this.#statePath(name), JSON.stringify(value));
  }

  async #statePath(name: string) {
    if (!/^[a-z-]+$/.test(name)) throw new Error(`Not a state name: ${name}`);
    const gitDir = (await this.#git(['rev-parse', '--absolute-git-dir'])).trim();
    return join(gitDir, `editor-${name}.json`);
  }

  /**
   * Writes a file's text at `commit` back as the file `to` (`adjust` may change it, knowing the
   * text now); the dev server's watcher records it as a new save.
   */
  async restore(commit: string, from: string, to = from, adjust = keep): Promise<void> {
    const text = await this.textAt(commit, from);
    if (text === undefined) throw new Error(`${from} has no version ${commit}`);
    checkContentPath(to);
    const target = join(this.root, to);
    const now = existsSync(target) ? await readFile(target, 'utf8') : '';
    await this.write(to, adjust(text, now));
  }

  #writes = oneAtATime();
  #wholeSteps = oneAtATime();

  /**
   * Runs `step` when no other such step is under way: a Save's write (Keystatic writes a page's
   * move as a new file, then the old one gone) and a record's look at the files, which so sees a
   * Save whole or not at all. A record under way as a Save wrote a move could keep the new file in
   * one save and the old one's going in the next: the move, seen as neither, left no redirect.
   * Neither step waits for anything else (`exclusive` may be held around a Save's write and around
   * a record alike).
   */
  savedWhole<T>(step: () => Promise<T>): Promise<T> {
    return this.#wholeSteps(step);
  }

  /**
   * Runs `write` once no other write of the editor's is under way (a Save checked against the
   * version it was made on, a restore, links moved, a redirect added), so that a check and the write
   * it allows are one step, whoever else writes meanwhile.
   *
   * Taken before a record is asked for (`record`), never from within one: a restore records inside
   * `write`, and a record waiting its turn for `exclusive` (a rename's redirect did) was then ahead
   * of the restore's record, each waiting for the other, and every Save after them for both.
   */
  exclusive<T>(write: () => Promise<T>): Promise<T> {
    return this.#writes(write);
  }

  /** A blob's text, if the history's repository has that blob. */
  async blobText(sha: string): Promise<string | undefined> {
    if (!/^[0-9a-f]{40}$/.test(sha) || !(await this.ready())) return undefined;
    try {
      return await this.#git(['cat-file', 'blob', sha]);
    } catch {
      return undefined;
    }
  }

  /** Whether a blob was once the text of a file in the history. */
  async wasVersionOf(sha: string, file: string): Promise<boolean> {
    checkContentPath(file);
    const start = await this.#start();
    if (!start || !/^[0-9a-f]{40}$/.test(sha)) return false;
    const found = await this.#log(start, file, ['-1', `--find-object=${sha}`]);
    return found.length > 0;
  }

  /** The last recorded change of a file: when, what its save said, by whom, and the file then (none: gone). */
  async lastChange(file: string) {
    checkContentPath(file);
    const start = await this.#start();
    const [last] = start ? await this.#log(start, file, ['-1']) : [];
    if (!last) return undefined;
    return {
      commit: last.commit,
      savedAt: last.savedAt,
      note: last.note,
      by: last.by,
      editor: last.editor,
      blob: await this.blobOf(last.commit, file),
    };
  }

  /** Writes a content file (its folder made if need be); it is recorded as any other change. */
  async write(file: string, text: string): Promise<void> {
    checkContentPath(file);
    const target = join(this.root, file);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text);
  }
}

const newestFirst = (lineage: Pick<Lineage, 'versions'> | undefined, limit: number) =>
  (lineage?.versions ?? []).slice(-limit).reverse();

/** One commit of `git log` in the format of `lineages` (its raw changes after the body, if any). */
function parseSave(record: string): LoggedSave {
  const end = record.indexOf('\x1d');
  const [commit = '', time = '0', name = '', email = '', committer = '', note = '', body = ''] =
    record.slice(0, end).split('\x1f');
  const changes = record
    .slice(end + 1)
    .split('\n')
    .flatMap((line): LoggedChange[] => {
      // `:100644 100644 <old blob> <new blob> R086\told\tnew`
      const raw = /^:\d+ \d+ ([0-9a-f]+) ([0-9a-f]+) ([AMDRT])\d*\t([^\t]+)(?:\t([^\t]+))?$/.exec(
        line,
      );
      if (!raw) return [];
      const [, oldBlob = '', blob = '', status, first = '', second] = raw;
      return [
        {
          status: status as LoggedChange['status'],
          before: first,
          file: second ?? first,
          blob,
          oldBlob,
        },
      ];
    });
  return {
    commit: commit.trim(),
    savedAt: Number(time) * 1000,
    note,
    by: { name, email },
    editor: committer === AUTHOR.email,
    trailers: trailersOf(body),
    changes,
  };
}

/**
 * The one history of a project in this process: the dev server's watcher and the editor's pages (a
 * module loaded again by Vite's runner) share it, so that a page reads after the saves under way
 * are recorded, and the two never record at once.
 */
export function historyOf(root: string): ContentHistory {
  const key = Symbol.for('agency-site.content-history');
  const shared = ((globalThis as Record<symbol, unknown>)[key] ??= new Map()) as Map<
    string,
    ContentHistory
  >;
  const path = resolve(root);
  let history = shared.get(path);
  if (!history) shared.set(path, (history = new ContentHistory(path)));
  return history;
}

/** A path inside src/content or src/assets, as the history names it: nothing else is read or written. */
export function checkContentPath(file: string): void {
  const normal = posix.normalize(file);
  if (
    normal !== file ||
    file.includes('\\') ||
    file.includes('\0') ||
    !/^src\/(content|assets)(\/[\w.@+-]+)*$/.test(file) ||
    file.split('/').some((part) => part === '..' || part === '.')
  )
    throw new Error(`Not a content file: ${JSON.stringify(file)}`);
}
