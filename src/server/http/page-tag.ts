/**
 * A page's ETag made of what it shows, and whether a request's If-None-Match names it: a page asked
 * again every few seconds (Publishing's, followed while a publish builds) is answered 304 while it
 * is the same, its page not made again.
 */
import { createHash } from 'node:crypto';

/** A weak ETag of `parts` (as JSON): the same for the same parts, whatever the page's bytes. */
export const pageTag = (parts: unknown) =>
  `W/"${createHash('sha256').update(JSON.stringify(parts)).digest('base64url')}"`;

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/**
 * Whether `request`'s If-None-Match names `tag`, compared weakly (RFC 9110). `*` is not taken: it
 * names no page, and a page made anew is never wrong.
 */
export function unchanged(request: Request, tag: string): boolean {
  const sent = request.headers.get('if-none-match');
  return !!sent && sent.split(',').some((value) => opaque(value) === opaque(tag));
}
