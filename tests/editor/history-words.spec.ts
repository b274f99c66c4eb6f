/**
 * History in a marketer's words (src/editor/dev-server/history/): each version says who saved it,
 * when in the marketer's own time (the zone their tab reports, here Auckland's, not the dev
 * server's), told apart from a save of the same minute, and which fields it changed, in the editor's
 * labels; a developer's commit is "changed by a developer", its subject folded away; what a restore
 * would change is shown field by field, the text now struck and the text that comes back. At 1280
 * px, in the copy of the project whose content every test puts back (./content.ts).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { violations } from '../support/axe';
import {
  changed,
  inProject,
  project,
  restore,
  saveEntry,
  snapshot,
  WRITE_WAIT_MS,
  type Snapshot,
} from './content';
import { expect, test } from './fixtures';
import { visit } from './visit';

let before: Snapshot;
test.beforeEach(() => {
  before = snapshot();
});
test.afterEach(() => {
  restore(before);
});

const service = 'src/content/services/ipad.mdx';
const timeZone = 'Pacific/Auckland';

/** A time of day in Auckland, as History says it with its seconds: "21:23:41". */
const aucklandTime = (at: number) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(at);

/** The copy's own history repository (a copy has no git of its own: .editor-history). */
const historyGit = (args: string[], env: NodeJS.ProcessEnv = {}, input?: string) =>
  execFileSync('git', args, {
    cwd: project(),
    env: { ...process.env, GIT_DIR: join(project(), '.editor-history'), ...env },
    encoding: 'utf8',
    input,
  }).trim();

/** When each version of `file` in History was recorded, newest first, in ms (git's seconds). */
const recordedTimes = (file: string) =>
  historyGit(['log', '--format=%ct', 'refs/editor/history', '--', file])
    .split('\n')
    .map((seconds) => Number(seconds) * 1000);

/**
 * A developer's commit, as the project's git history brings one in: made with git's plumbing in the
 * copy's own history repository (a copy has no git of its own: .editor-history), by someone else,
 * then the file written as that commit has it (the dev server finds nothing new to record).
 */
async function commitAsDeveloper(file: string, text: string, subject: string) {
  const index = join(tmpdir(), `history-words-index-${process.pid}`);
  const env = {
    GIT_INDEX_FILE: index,
    GIT_AUTHOR_NAME: 'Dana Developer',
    GIT_AUTHOR_EMAIL: 'dana@agency.example',
    GIT_COMMITTER_NAME: 'Dana Developer',
    GIT_COMMITTER_EMAIL: 'dana@agency.example',
  };
  const git = (args: string[], input?: string) => historyGit(args, env, input);
  try {
    // On top of the marketer's last save, once the dev server has recorded it.
    const recorded = () => {
      try {
        return git(['rev-parse', `refs/editor/history:${file}`]) === git(['hash-object', file]);
      } catch {
        return false;
      }
    };
    await expect.poll(recorded, { timeout: WRITE_WAIT_MS }).toBe(true);
    // Past the dev server's wait for more writes of that save (300 ms), which records nothing new.
    await new Promise((done) => setTimeout(done, 600));
    const tip = git(['rev-parse', 'refs/editor/history']);
    const blob = git(['hash-object', '-w', '--stdin'], text);
    git(['read-tree', tip]);
    git(['update-index', '--add', '--cacheinfo', `100644,${blob},${file}`]);
    const commit = git(['commit-tree', git(['write-tree']), '-p', tip, '-m', subject]);
    git(['update-ref', 'refs/editor/history', commit, tip]);
  } finally {
    rmSync(index, { force: true });
  }
  writeFileSync(inProject(file), text);
}

test("History says who saved each version, when in the marketer's time, and what changed, by field", async ({
  page,
}) => {
  // The marketer's tab is in Auckland; the dev server is not.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setTimezoneOverride', { timezoneId: timeZone });

  await visit(page, '/keystatic/collection/services/item/ipad');
  const name = page.getByRole('textbox', { name: 'Service name', exact: true });
  const hero = page.getByRole('group', { name: 'Hero' });
  const heroText = hero.getByRole('textbox', { name: 'Hero text', exact: true });
  const oldName = await name.inputValue();
  const oldHero = await heroText.inputValue();
  const sentence = 'Every app we build works offline.';

  // Two saves a few seconds apart: in one minute in most runs, told apart by their seconds.
  await name.fill(`${oldName} Pro`);
  await saveEntry(page);
  await changed(before, service);
  const afterFirst = readFileSync(inProject(service));
  await heroText.fill(`${oldHero} ${sentence}`);
  await saveEntry(page);
  await changed(new Map([[service, afterFirst]]), service);

  // A developer then commits a change of the page's SEO title.
  const subject = "js-yaml: 80 columns for the services' front matter (issue 47, part 2)";
  const saved = readFileSync(inProject(service), 'utf8');
  const seoTitle = /^ {2}title: (.*)$/m.exec(saved.slice(saved.indexOf('\nseo:')))![1]!;
  await commitAsDeveloper(
    service,
    saved.replace(`  title: ${seoTitle}`, '  title: iPad Apps'),
    subject,
  );

  await page.getByRole('button', { name: 'History', exact: true }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'History of Service pages → ipad' }),
  ).toBeVisible();
  const versions = page.getByRole('list', { name: 'Saved versions, newest first' });
  const item = (n: number) => versions.getByRole('listitem').nth(n);

  // The developer's commit: "changed by a developer", its subject folded away.
  await expect(item(0)).toContainText('changed by a developer');
  await expect(item(0)).toContainText('Changed: SEO → SEO title');
  await expect(item(0)).toContainText('Current version');
  const note = item(0).getByText(subject);
  await expect(note).toBeHidden();
  await item(0).getByText("The developer's note").click();
  await expect(note).toBeVisible();

  // The two saves of one minute: by you, each with its fields, told apart by their seconds, in
  // Auckland's time.
  await expect(item(1)).toContainText('saved by you');
  await expect(item(1)).toContainText('Changed: Hero → Hero text');
  await expect(item(2)).toContainText('saved by you');
  await expect(item(2)).toContainText('Changed: Service name');
  const second = (await item(1).locator('time').first().innerText()).trim();
  const first = (await item(2).locator('time').first().innerText()).trim();
  // Two saves of one second (a fast machine) are told apart by their order too.
  const withoutOrder = (words: string) => words.replace(/ \((1st|2nd) save that second\)$/, '');
  // Each at the time History recorded it: with its seconds where another version shares its minute
  // (two saves that straddled a minute's turn are told apart by their minutes; the rule's every
  // case: tests/unit/editor-time-words.test.ts).
  const times = recordedTimes(service);
  const minute = (at: number) => aucklandTime(at).slice(0, 5);
  const saidAt = (at: number) =>
    `today ${times.filter((t) => minute(t) === minute(at)).length > 1 ? aucklandTime(at) : minute(at)}`;
  expect(withoutOrder(second)).toBe(saidAt(times[1]!));
  expect(withoutOrder(first)).toBe(saidAt(times[2]!));
  expect(first).not.toBe(second);
  // No ISO stamps, no commit messages of the editor's own, no file paths.
  const listed = await versions.innerText();
  expect(listed).not.toMatch(/\d{4}-\d\d-\d\dT|Saved in the editor|Committed|src\//);
  expect(await violations(page)).toEqual([]);

  // What restoring the version before these three would change: the fields, not YAML lines.
  await item(3)
    .getByRole('link', { name: /See the changes and restore/ })
    .click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(
    'Service pages → ipad: the version of',
  );
  const field = (label: string) =>
    page
      .locator('section.change')
      .filter({ has: page.getByRole('heading', { name: label, exact: true }) });
  await expect(field('Service name').getByRole('deletion')).toHaveText(`Now: ${oldName} Pro`);
  await expect(field('Service name').getByRole('insertion')).toHaveText(`Comes back: ${oldName}`);
  await expect(field('Hero → Hero text').getByRole('deletion')).toContainText(sentence);
  await expect(field('Hero → Hero text').getByRole('insertion')).not.toContainText(sentence);
  await expect(field('Hero → Hero text').getByRole('deletion').locator('mark')).toHaveText(
    sentence,
  );
  await expect(field('SEO → SEO title').getByRole('deletion')).toHaveText('Now: iPad Apps');
  await expect(field('SEO → SEO title').getByRole('insertion')).toHaveText(
    `Comes back: ${seoTitle}`,
  );
  await expect(page.locator('main')).not.toContainText(/Near line|title:|description: >-/);
  expect(await violations(page)).toEqual([]);

  // Restore: the entry is as it was, and the restore is itself a version, in words.
  await page.getByRole('button', { name: 'Restore this version' }).click();
  await expect(page.getByRole('status')).toContainText('Restored');
  expect(readFileSync(inProject(service), 'utf8')).toBe(before.get(service)!.toString('utf8'));
  await expect(item(0)).toContainText('restored by you');
  await expect(item(0)).toContainText(/The version of today \d\d:\d\d(:\d\d)? came back/);
  await expect(item(0)).toContainText('Service name');
  expect(await violations(page)).toEqual([]);

  // The overview's recent saves say the same, in the same words.
  await page.getByRole('link', { name: 'History and deleted entries' }).click();
  const recent = page.getByRole('list', { name: 'Recent saves' });
  await expect(recent.getByRole('listitem').first()).toContainText('restored by you');
  await expect(
    recent.getByRole('listitem').filter({ hasText: 'changed by a developer' }).first(),
  ).toContainText('Service pages → ipad');
  await expect(page.locator('main')).not.toContainText(/\d{4}-\d\d-\d\dT/);
  expect(await violations(page)).toEqual([]);

  // The editor, opened again, shows the restored text.
  await visit(page, '/keystatic/collection/services/item/ipad');
  await expect(name).toHaveValue(oldName);
  await expect(heroText).toHaveValue(oldHero);
});
