/**
 * A redirect's field in the editor says what the build says of the whole list, at that item's field
 * (src/editor/fields/redirect/validate.ts over src/domain/redirects.ts): an item of the list found by
 * its value, a new one as if added at the end; before the site's pages are known, only what the
 * address alone gets wrong.
 */
import { describe, expect, it } from 'vitest';
import { redirectFieldProblem } from '../../src/editor/fields/redirect/validate';
import type { Site } from '../../src/editor/site';

const site: Site = {
  pages: new Set(['/', '/laravel', '/php']),
  names: new Map([['/laravel', 'Laravel']]),
  redirects: [],
};
const list = [
  { from: '/old-php', to: '/php' },
  { from: '/spring-offer', to: '/spring-offer' },
];

describe("a redirect's field", () => {
  it('an item of the list: found by its value, told what the build would tell', () => {
    expect(redirectFieldProblem('to', { to: '/spring-offer' }, list, site)).toBe(
      '/spring-offer leads to itself: a loop',
    );
    expect(redirectFieldProblem('to', { to: '/php' }, list, site)).toBeUndefined();
  });

  it('a new item, as if added at the end: a chain, a live page, an old address twice', () => {
    const adding = (item: { from: string; to: string }, field: 'from' | 'to') =>
      redirectFieldProblem(field, item, list, site, true);
    expect(adding({ from: '/older-php', to: '/old-php' }, 'to')).toBe(
      '/old-php is itself redirected: send this one straight to /php',
    );
    expect(adding({ from: '/laravel', to: '/php' }, 'from')).toBe(
      '/laravel is a page of the site: a redirect would hide it',
    );
    expect(adding({ from: '/old-php', to: '/laravel' }, 'from')).toBe(
      '/old-php is redirected more than once (to /php, to /laravel): keep one',
    );
  });

  it('before the pages are known: what the address alone gets wrong, and nothing else', () => {
    expect(redirectFieldProblem('to', { to: '/spring-offer' }, list, undefined)).toBeUndefined();
    expect(redirectFieldProblem('from', { from: '/old/' }, list, undefined)).toMatch(
      /no slash at the end/,
    );
  });
});
