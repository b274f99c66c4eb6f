/** The rules of redirects.yaml (src/domain/redirects.ts): one entry, the list, a page's move, a request. */
import { describe, expect, it } from 'vitest';
import {
  addressProblem,
  linkProblem,
  redirectProblems,
  resolveRedirect,
  withMove,
  type Redirect,
} from '../../src/domain/redirects';

const live = ['/', '/about', '/contact', '/iphone', '/laravel', '/service'];

describe('one address', () => {
  it('takes a path of the site; the new one may name a section', () => {
    for (const value of ['/old-page', '/a/b-2', '/x1'])
      expect(addressProblem(value, 'from')).toBeUndefined();
    for (const value of ['/', '/laravel', '/contact#form', '/about#our-team'])
      expect(addressProblem(value, 'to')).toBeUndefined();
  });

  it.each([
    ['', 'from', /Give the old address/],
    ['old-page', 'from', /starting with "\/"/],
    ['/old#top', 'from', /without "#…"/],
    ['/old?x=1', 'from', /no "\?…" part/],
    ['/new?x=1', 'to', /no "\?…" part/],
    ['//evil.example', 'to', /lowercase/],
    ['//evil-example', 'to', /"\/\/"/],
    ['/a//b', 'from', /"\/\/"/],
    ['/old/', 'from', /no slash at the end: "\/old"/],
    ['/Old-Page', 'from', /lowercase/],
    ['/%2F%2Fevil.example', 'to', /lowercase/],
    ['/old\r\nSet-Cookie:x', 'from', /lowercase/],
    ['/a\\b', 'to', /lowercase/],
    ['/../etc', 'to', /lowercase/],
    ['https://evil.example', 'to', /starting with "\/"/],
    ['/new#Top', 'to', /section of the page/],
    ['/new#', 'to', /section of the page/],
    [`/${'a'.repeat(300)}`, 'from', /too long: at most 200/],
  ] as const)('refuses %j as the %s address', (value, field, message) => {
    expect(addressProblem(value, field)).toMatch(message);
  });
});

describe('redirectProblems', () => {
  it('accepts redirects from old addresses to pages of the site', () => {
    expect(
      redirectProblems(
        [
          { from: '/reactpage', to: '/laravel' },
          { from: '/iphone-app', to: '/iphone' },
          { from: '/contact-us', to: '/contact#form' },
        ],
        live,
      ),
    ).toEqual([]);
  });

  it('accepts an empty list', () => {
    expect(redirectProblems([], live)).toEqual([]);
  });

  it('names the entry and the field of each problem', () => {
    const problems = redirectProblems(
      [
        { from: '/iphone', to: '/laravel' },
        { from: '/old', to: '/nope' },
        { from: '/a', to: '/b' },
        { from: '/b', to: '/about' },
        { from: '/old', to: '/about' },
        { from: '/x', to: '/y' },
        { from: '/y', to: '/x' },
        { from: '/self', to: '/self#top' },
        { from: '/bad/', to: 'nowhere' },
      ],
      live,
    );
    expect(problems).toEqual([
      {
        index: 0,
        field: 'from',
        message: '/iphone is a page of the site: a redirect would hide it',
      },
      {
        index: 1,
        field: 'from',
        message: '/old is redirected more than once (to /nope, to /about): keep one',
      },
      { index: 1, field: 'to', message: '/nope is not a page of the site' },
      {
        index: 2,
        field: 'to',
        message: '/b is itself redirected: send this one straight to /about',
      },
      {
        index: 4,
        field: 'from',
        message: '/old is redirected more than once (to /nope, to /about): keep one',
      },
      { index: 5, field: 'to', message: 'a loop: /x → /y → /x' },
      { index: 6, field: 'to', message: 'a loop: /y → /x → /y' },
      { index: 7, field: 'to', message: '/self leads to itself: a loop' },
      { index: 8, field: 'from', message: expect.stringMatching(/no slash at the end/) },
      { index: 8, field: 'to', message: expect.stringMatching(/starting with "\/"/) },
    ]);
  });

  it('follows a long chain to its end', () => {
    const problems = redirectProblems(
      [
        { from: '/a', to: '/b' },
        { from: '/b', to: '/c' },
        { from: '/c', to: '/gone' },
      ],
      live,
    );
    expect(problems.map(({ index, message }) => [index, message])).toEqual([
      [0, '/b is itself redirected, and /gone is not a page of the site'],
      [1, '/c is itself redirected, and /gone is not a page of the site'],
      [2, '/gone is not a page of the site'],
    ]);
  });
});

describe('linkProblem: a link of the content, as the build and the editor check it', () => {
  const pages = new Set(live);
  const redirects = [{ from: '/old-zend', to: '/laravel' }];

  it('takes a page, with a section, a query or a trailing slash, and an old address of a redirect', () => {
    for (const href of ['/', '/laravel', '/contact#form', '/iphone/', '/service?x=1', '/old-zend'])
      expect(linkProblem(href, pages, redirects), href).toBeUndefined();
  });

  it('says what the build says of a link to no page, the link as written', () => {
    expect(linkProblem('/zend#top', pages, redirects)).toBe(
      '"/zend#top" is not a page of the site (a service page renamed or removed?)',
    );
    // A redirect's new address is no page of its own.
    expect(linkProblem('/old-zend/x', pages, redirects)).toMatch(/is not a page of the site/);
  });
});

describe('withMove: a page moved from one address to another', () => {
  /** The site's pages once every redirect of `list` is a moved page's: what the build checks. */
  const valid = (list: Redirect[], pages: string[]) => {
    expect(redirectProblems(list, pages)).toEqual([]);
    expect(list.every(({ from, to }) => from !== to.split('#')[0])).toBe(true);
  };

  it('A → B, then B → C, then C → A: no chain, no loop, every old address answered', () => {
    const first = withMove([], '/a', '/b');
    expect(first).toEqual([{ from: '/a', to: '/b' }]);
    valid(first, ['/', '/b']);

    const second = withMove(first, '/b', '/c');
    expect(second).toEqual([
      { from: '/a', to: '/c' },
      { from: '/b', to: '/c' },
    ]);
    valid(second, ['/', '/c']);

    // Back to where it started: /a is a page again, no redirect may hide it.
    const third = withMove(second, '/c', '/a');
    expect(third).toEqual([
      { from: '/b', to: '/a' },
      { from: '/c', to: '/a' },
    ]);
    valid(third, ['/', '/a']);
  });

  it('keeps the other redirects, in their order, and a fragment of a retargeted one', () => {
    const list = [
      { from: '/x', to: '/about' },
      { from: '/y', to: '/a#team' },
      { from: '/z', to: '/contact' },
    ];
    expect(withMove(list, '/a', '/b')).toEqual([
      { from: '/x', to: '/about' },
      { from: '/y', to: '/b#team' },
      { from: '/z', to: '/contact' },
      { from: '/a', to: '/b' },
    ]);
  });

  it('a move to the same address changes nothing', () => {
    const list = [{ from: '/x', to: '/a' }];
    expect(withMove(list, '/a', '/a/')).toEqual(list);
  });

  it('does not change the list it was given', () => {
    const list = [{ from: '/a', to: '/b' }];
    withMove(list, '/b', '/c');
    expect(list).toEqual([{ from: '/a', to: '/b' }]);
  });
});

describe('resolveRedirect', () => {
  const list = [
    { from: '/old', to: '/new' },
    { from: '/old-contact', to: '/contact#form' },
  ];

  it('answers the old address, with or without a trailing slash, the query kept', () => {
    expect(resolveRedirect(list, '/old')).toBe('/new');
    expect(resolveRedirect(list, '/old/')).toBe('/new');
    expect(resolveRedirect(list, '/old', '?utm_source=mail&x=%20')).toBe(
      '/new?utm_source=mail&x=%20',
    );
    expect(resolveRedirect(list, '/old-contact/', '?a=1')).toBe('/contact?a=1#form');
  });

  it('answers nothing else', () => {
    for (const path of ['/', '/new', '/old/x', '/OLD', '/old-', '//old', '/%6Fld', '/old%0d%0a'])
      expect(resolveRedirect(list, path)).toBeUndefined();
  });

  it('puts nothing of the request but a clean query in the Location', () => {
    expect(resolveRedirect(list, '/old', '?a\r\nSet-Cookie: x=1')).toBe('/new');
    expect(resolveRedirect(list, '/old', '?a b')).toBe('/new');
    expect(resolveRedirect(list, '/old', '//evil.example')).toBe('/new');
    // A file written by hand past the build's check: an address that is not the site's is not used.
    expect(resolveRedirect([{ from: '/old', to: '//evil.example' }], '/old')).toBeUndefined();
    expect(resolveRedirect([{ from: '/old', to: '/\\evil.example' }], '/old')).toBeUndefined();
  });
});
