/**
 * A part of a page kept up to date by asking the page's address again: every few seconds, without
 * reloading, the part as the answer has it is moved into the one shown (./morph.ts: the focus stays
 * where it is, a live region says only what changed). The staff's pages that follow a build use it:
 * Publishing's (components/staff/PublishFollow.astro) and the preview's waiting page
 * (components/staff/PreviewWait.astro).
 */
import { morph } from './morph';

/** What to do with an answer: read it as the page, ask again next turn, or go where it redirects. */
export type Reading = 'read' | 'again' | 'redirected';

/**
 * What an answer is to the follower, before its text is read. `errorPages`: an answer that is not
 * a success is read as a page too (it says why), else it passes (asked again).
 */
export function reading(
  answer: Pick<Response, 'type' | 'status' | 'ok'>,
  errorPages: boolean,
): Reading {
  // Only asked with `redirect: 'manual'`: the redirect is the page's to follow, not the fetch's.
  if (answer.type === 'opaqueredirect') return 'redirected';
  // Nothing changed since the ETag sent (If-None-Match): nothing new, asked again.
  if (answer.status === 304) return 'again';
  return answer.ok || errorPages ? 'read' : 'again';
}

export interface Following {
  /** The part followed: the same selector finds it in the page and in each answer. */
  selector: string;
  everyMs: number;
  /** The address asked: the page's own, by default. */
  address?: () => string;
  headers?: Record<string, string>;
  /** Whether to ask again, looked at before each ask (a publish live or failed: no). */
  goesOn?: (shown: HTMLElement) => boolean;
  /** An answer that is not a success read as a page too (see `reading`). */
  errorPages?: boolean;
  /** A redirect is the page's to follow (asked with `redirect: 'manual'`); the following ends. */
  redirected?: () => void;
  /** The last ETag given kept and sent as If-None-Match: a 304 is then nothing new. */
  etag?: boolean;
  /** An answer without the part (no longer the same page): whether to ask again. */
  notFollowed: (page: Document) => 'again' | 'stop';
}

/** Follows `following.selector`'s part of the page, if the page has it; asked first after a turn. */
export function follow(following: Following) {
  const { selector, everyMs, address = () => location.href, headers = {} } = following;
  const shown = document.querySelector<HTMLElement>(selector);
  if (!shown) return;
  let etag: string | undefined;

  /** The answer as the page, or what to do instead; no connection for a moment: asked again. */
  const ask = async (): Promise<Document | Exclude<Reading, 'read'>> => {
    try {
      const answer = await fetch(address(), {
        cache: 'no-store',
        ...(following.redirected && { redirect: 'manual' as const }),
        headers: etag ? { ...headers, 'If-None-Match': etag } : headers,
      });
      const read = reading(answer, following.errorPages ?? false);
      if (read !== 'read') return read;
      const text = await answer.text();
      if (following.etag && answer.ok) etag = answer.headers.get('ETag') ?? undefined;
      return new DOMParser().parseFromString(text, 'text/html');
    } catch {
      return 'again';
    }
  };

  const turn = async () => {
    if (following.goesOn && !following.goesOn(shown)) return;
    const page = await ask();
    if (page === 'redirected') return following.redirected?.();
    if (page !== 'again') {
      const next = page.querySelector(selector);
      if (next) morph(shown, next);
      else if (following.notFollowed(page) === 'stop') return;
    }
    setTimeout(turn, everyMs);
  };
  setTimeout(turn, everyMs);
}
