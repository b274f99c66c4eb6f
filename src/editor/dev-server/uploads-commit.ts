/**
 * In `astro dev` only (./editor.ts adds this middleware): a Save of the editor moves the pending
 * uploads its files name into src/assets (./pending.ts) before Keystatic writes them, so that
 * the dev server never reads content that names a picture it has not got; if Keystatic then fails,
 * they go back to pending. Keystatic's local Save is one POST of the files it writes, each as base64.
 */
import { defineMiddleware } from 'astro:middleware';
import { commitNamedIn, uncommit } from './pending.ts';
import { KEYSTATIC_SAVE } from '../../domain/editing.ts';

/** The texts of the files a Save writes, or none if the body is not Keystatic's. */
async function savedTexts(request: Request): Promise<string[]> {
  try {
    const { additions } = (await request.clone().json()) as {
      additions?: { contents?: unknown }[];
    };
    return (additions ?? [])
      .map(({ contents }) => contents)
      .filter((contents): contents is string => typeof contents === 'string')
      .map((contents) => Buffer.from(contents, 'base64').toString('utf8'));
  } catch {
    return [];
  }
}

export const onRequest = defineMiddleware(async (context, next) => {
  if (context.request.method !== 'POST' || context.url.pathname !== KEYSTATIC_SAVE) return next();
  const committed = await commitNamedIn(await savedTexts(context.request));
  const response = await next();
  if (!response.ok) await uncommit(committed);
  return response;
});
