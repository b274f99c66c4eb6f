/**
 * What the editor's server tells its tab (a content file written, a page moved), in the browser.
 * In `npm run edit` the dev server sends these as its own events (Vite's); in the live site's
 * helper, which has no dev server, the tab asks for them (`editorEventsPath`,
 * ./dev-server/server-events.ts) every few seconds while it is shown. One subscription for both.
 */
import { editorEventsPath } from './routes.ts';

type Handler = (data: any) => void;

const handlers = new Map<string, Set<Handler>>();
/** The last event the tab has heard of; undefined until the first answer. */
let heard: number | undefined;
let polling = false;

/** How often a shown tab asks. */
const POLL_MS = 2_000;

async function poll() {
  if (document.visibilityState === 'visible') {
    try {
      const response = await fetch(`${editorEventsPath}?after=${heard ?? ''}`, {
        cache: 'no-store',
      });
      if (response.ok) {
        const { last, events } = (await response.json()) as {
          last: number;
          events: { event: string; data: unknown }[];
        };
        if (heard !== undefined)
          for (const { event, data } of events)
            for (const handler of handlers.get(event) ?? []) handler(data);
        heard = last;
      }
    } catch {
      // The server restarting, the network gone: asked again in a moment.
    }
  }
  setTimeout(() => void poll(), POLL_MS);
}

/** Calls `handler` with each `event` the editor's server sends from now on. */
export function onServerEvent(event: string, handler: Handler) {
  if (import.meta.hot) {
    import.meta.hot.on(event, handler);
    return;
  }
  if (typeof document === 'undefined') return;
  handlers.set(event, (handlers.get(event) ?? new Set()).add(handler));
  if (!polling) {
    polling = true;
    void poll();
  }
}
