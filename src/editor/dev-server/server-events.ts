/**
 * What the live site's helper tells the editor's tabs (../server-events.ts asks): the events
 * `npm run edit` sends over the dev server's socket (a content file written, a page moved), kept
 * here in order, numbered, the last hundred. `GET ?after=N` answers those after N and the last
 * number; the tab asks every few seconds while it is shown. The helper's own route
 * (./helper-build.ts injects it at `editorEventsPath`).
 */
import type { APIRoute } from 'astro';

export const prerender = false;

interface Told {
  number: number;
  event: string;
  data: unknown;
}

/** One list for the helper, whichever of its chunks loads this module. */
const key = Symbol.for('agency-site.editor-events');
const told = ((globalThis as Record<symbol, Told[] | undefined>)[key] ??= []);
const KEPT = 100;

/** Tells the tabs `event`. */
export function announce(event: string, data: unknown = {}) {
  told.push({ number: (told.at(-1)?.number ?? 0) + 1, event, data });
  if (told.length > KEPT) told.splice(0, told.length - KEPT);
}

export const GET: APIRoute = ({ url }) => {
  const after = Number(url.searchParams.get('after'));
  const last = told.at(-1)?.number ?? 0;
  const events = url.searchParams.get('after')
    ? told.filter(({ number }) => number > after).map(({ event, data }) => ({ event, data }))
    : [];
  return Response.json({ last, events }, { headers: { 'Cache-Control': 'no-store' } });
};

export const ALL: APIRoute = () => new Response(null, { status: 405, headers: { allow: 'GET' } });
