/**
 * The content's history in the live site's helper (../helper-build.ts adds this middleware first):
 * what `npm run edit`'s plugin does with the dev server's watcher and its Connect middleware
 * (./recorder.ts `editorHistory`), done with Node's own watcher over the draft and around
 * Keystatic's Save; and the tabs told of each content write and each page moved
 * (../server-events.ts), as the dev server tells them (../content-written.ts).
 */
import { existsSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineMiddleware } from 'astro:middleware';
import { CONTENT_WRITTEN_EVENT, PAGE_MOVED_EVENT, SITE_RELOAD_EVENT } from '../../events.ts';
import { contentRoot } from '../roots.ts';
import { announce } from '../server-events.ts';
import { OWN_REPOSITORY } from './content-history.ts';
import { historyRecorder, recordedFolders } from './recorder.ts';
import { KEYSTATIC_SAVE } from '../../../domain/editing.ts';

/** The writes of one moment are told once (a Save writes an entry, then its redirect). */
const SETTLE_MS = 100;

/**
 * The draft's own files that are not content, out of Keystatic's list of the files (it leaves out
 * what .gitignore names, as in the project): the history's repository, whose lock files vanish as
 * they are read (a Save's 500), and the pending uploads (.astro/editor-uploads).
 */
function keepOwnFilesOutOfTree(root: string) {
  const path = join(root, '.gitignore');
  const listed = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const missing = [`${OWN_REPOSITORY}/`, '.astro/'].filter(
    (line) => !listed.split('\n').includes(line),
  );
  if (missing.length)
    writeFileSync(
      path,
      `${listed}${listed && !listed.endsWith('\n') ? '\n' : ''}${missing.join('\n')}\n`,
    );
}

function startRecording() {
  keepOwnFilesOutOfTree(contentRoot());
  const recorder = historyRecorder(contentRoot(), {
    tell: (move) => announce(PAGE_MOVED_EVENT, move),
    warn: (text) => console.warn(`[editor] ${text}`),
  });
  const content = join(contentRoot(), 'src', 'content');
  let timer: NodeJS.Timeout | undefined;
  for (const folder of recordedFolders(contentRoot())) {
    if (!existsSync(folder)) continue;
    watch(folder, { recursive: true }, (_event, name) => {
      if (!name) return;
      const file = join(folder, name.toString());
      recorder.changed(file);
      if (!file.startsWith(content)) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        announce(CONTENT_WRITTEN_EVENT);
        // The fields' list of pages and redirects (src/editor/site.ts) is read anew too.
        announce(SITE_RELOAD_EVENT);
      }, SETTLE_MS);
    });
  }
  return recorder;
}

let recorder: ReturnType<typeof historyRecorder> | undefined;

export const onRequest = defineMiddleware(async ({ request, url }, next) => {
  recorder ??= startRecording();
  if (request.method !== 'POST' || url.pathname !== KEYSTATIC_SAVE) return next();
  const answered = recorder.saveBegins(request.headers);
  let ok = false;
  try {
    const response = await next();
    ok = response.status < 300;
    return response;
  } finally {
    void answered(ok);
  }
});
