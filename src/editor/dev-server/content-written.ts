/**
 * The editor's tabs follow the content files the dev server writes (`astro dev` only; ./editor.ts
 * adds this plugin). Keystatic's tab fetches its copy of the files once and then knows only its own
 * Saves: after a rename's redirect, links moved by "Point them at …", a restore or another tab's
 * Save, it asked for versions that were gone ("Could not fetch blob … 404") and showed old text.
 * Each write of src/content, once settled, is told to every tab (CONTENT_WRITTEN_EVENT), which
 * fetches the files anew (../browser/saves.ts).
 */
import { join, sep } from 'node:path';
import type { Plugin } from 'vite';
import { CONTENT_WRITTEN_EVENT } from '../events.ts';
import { beingWritten } from './keystatic-writes.ts';

/** The writes of one moment are told once (a Save writes an entry, then its redirect). */
const SETTLE_MS = 100;

export function tabsFollowWrites(): Plugin {
  return {
    name: 'editor:tabs-follow-writes',
    apply: 'serve',
    configureServer(server) {
      const content = join(server.config.root, 'src', 'content') + sep;
      let timer: NodeJS.Timeout | undefined;
      server.watcher.on('all', (_event, file) => {
        if (!file.startsWith(content) || beingWritten(file)) return;
        clearTimeout(timer);
        timer = setTimeout(
          () => server.environments.client.hot.send(CONTENT_WRITTEN_EVENT, {}),
          SETTLE_MS,
        );
      });
    },
  };
}
