/**
 * In `astro dev` only (./editor.ts adds this middleware then): a page of the site is sent once it
 * has rendered whole, and a page that fails on a content mistake says so in a plain page of its own.
 *
 * - Astro streams a page, so a content mistake met by a component halfway (a list it reads,
 *   lib/content.ts) answered 200 with the page cut short there; read whole first, the mistake is the
 *   page's error, as for one met before the page began. Prerendered pages only: they set no cookies,
 *   and the on-demand ones keep streaming.
 * - A content mistake (src/lib/content-checks.ts, `describeForStaff`) is the page's answer, 500, in
 *   plain words: each mistake where the editor shows it, a link to the entry in the editor, and, for
 *   a developer, the files and the stack trace folded away (`<details>`). Astro's own page put the
 *   stack trace, with the machine's paths, under the message, in its overlay over an empty page.
 *   The page reloads itself once the content changes (../browser/site-reload.ts). Any other error
 *   is a developer's, and keeps Astro's overlay.
 */
import { fileURLToPath } from 'node:url';
import { defineMiddleware } from 'astro:middleware';
import { contentMistakeHeadings } from '../../domain/content-rules.ts';
import { htmlText } from '../../domain/html-text.ts';

const siteReload = `/@fs${fileURLToPath(new URL('../browser/site-reload.ts', import.meta.url))}`;

/** Whether an error is a content mistake's, as lib/content.ts throws it in `astro dev`. */
const isContentMistake = (error: unknown): error is Error =>
  error instanceof Error && error.message.startsWith(contentMistakeHeadings.page);

/** Each mistake of the message: its line in the editor's words, and the file it is in. */
export function mistakesOf(message: string): { said: string; file?: string }[] {
  const lines = message.split('\n').slice(1);
  const mistakes: { said: string; file?: string }[] = [];
  for (const line of lines) {
    const developer = /^\s{6}\((src\/[^:]+):/.exec(line);
    if (developer && mistakes.length) mistakes.at(-1)!.file = developer[1];
    else if (line.trim()) mistakes.push({ said: line.trim() });
  }
  return mistakes;
}

/** The plain page of a content mistake. `editorUrl`, where the editor shows a file's entry. */
export function mistakePage(error: Error, editorUrl: (file: string) => string | undefined) {
  const items = mistakesOf(error.message)
    .map(({ said, file }) => {
      const url = file && editorUrl(file);
      return `<li><p>${htmlText(said)}</p>${url ? `<p><a href="${htmlText(url)}">Open it in the editor</a></p>` : ''}</li>`;
    })
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>A content mistake stops this page</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1f2328}main{max-width:48rem;margin:0 auto;padding:2rem 1.25rem}
h1{font-size:1.5rem;margin:0 0 .75rem}ul{padding-left:1.25rem}li{margin:.75rem 0}li p{margin:0 0 .25rem}
a{color:#2e5bd6}details{margin-top:2rem;color:#59636e}summary{cursor:pointer}pre{white-space:pre-wrap;overflow-wrap:anywhere;font-size:.8rem;background:#f6f8fa;padding:1rem;border-radius:.5rem}</style>
<script type="module" src="/@vite/client"></script><script type="module" src="${htmlText(siteReload)}"></script>
</head><body><main>
<h1>A content mistake stops this page</h1>
<p>Correct it in the editor and save: this page then shows again by itself. The rest of the site works meanwhile.</p>
<ul>${items}</ul>
<details><summary>For a developer: the files, the fields and the stack trace</summary><pre>${htmlText(`${error.message}\n\n${error.stack ?? ''}`)}</pre></details>
</main></body></html>`;
}

/** Where the editor shows the entry of a content file, if it shows it. */
async function editorUrlOf() {
  const { entryOfFile } = await import('./history/entries.ts');
  return (file: string) => entryOfFile(file)?.editorUrl;
}

export const onRequest = defineMiddleware(async (context, next) => {
  try {
    const response = await next();
    if (!context.isPrerendered || !response.headers.get('content-type')?.startsWith('text/html'))
      return response;
    // A mistake met while rendering rejects this read.
    const whole = await response.arrayBuffer();
    return new Response(whole, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  } catch (error) {
    if (!isContentMistake(error)) throw error;
    return new Response(mistakePage(error, await editorUrlOf()), {
      status: 500,
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    });
  }
});
