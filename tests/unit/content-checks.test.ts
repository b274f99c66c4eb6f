/** The checks the schema cannot make alone: links lead to pages, slugs are free and unique. */
import { describe, expect, it } from 'vitest';
import {
  checkContent,
  checkRedirects,
  describeForStaff,
  describeProblems,
  livePages,
  routeOfPageFile,
} from '../../src/lib/content-checks';

const fixed = ['/', '/about', '/contact', '/service', '/portfolio', '/schedule'];
const services = [
  { file: 'src/content/services/iphone.mdx', slug: 'iphone' },
  { file: 'src/content/services/laravel.mdx', slug: 'laravel' },
];

describe('checkContent', () => {
  it('accepts links to fixed pages and service pages, with a fragment, a query or a trailing slash', () => {
    const entries = [
      {
        file: 'src/content/data/technologies.yaml',
        id: 'laravel',
        data: { title: 'Laravel', href: '/laravel' },
      },
      {
        file: 'src/content/pages/home.yaml',
        data: {
          sections: [{ items: [{ links: [{ href: '/contact#form' }, { href: '/iphone/' }] }] }],
        },
      },
      {
        file: 'src/content/services/iphone.mdx',
        data: { hero: { button: { href: '/portfolio?filter=apps' } } },
        body: 'See [our work](/portfolio) or <a href="/schedule">book a call</a>.',
      },
      // Outside links are not this check's business.
      { file: 'src/content/data/settings.yaml', id: 'site', data: { href: 'https://x.com/a' } },
    ];
    expect(checkContent(entries, fixed, services)).toEqual([]);
  });

  it('names the file, the entry and the field of a link to a page that does not exist', () => {
    const problems = checkContent(
      [
        { file: 'src/content/data/technologies.yaml', id: 'zend', data: { href: '/zend' } },
        {
          file: 'src/content/pages/home.yaml',
          data: { sections: [{ items: [{ links: [{ label: 'iOS', href: '/ios' }] }] }] },
        },
        { file: 'src/content/services/iphone.mdx', data: {}, body: 'Intro\n\nSee [Zend](/zend).' },
      ],
      fixed,
      services,
    );
    expect(problems).toEqual([
      {
        file: 'src/content/data/technologies.yaml',
        field: 'entry "zend", href',
        message: '"/zend" is not a page of the site (a service page renamed or removed?)',
      },
      {
        file: 'src/content/pages/home.yaml',
        field: 'sections.0.items.0.links.0.href',
        message: '"/ios" is not a page of the site (a service page renamed or removed?)',
      },
      {
        file: 'src/content/services/iphone.mdx',
        field: 'body, line 3',
        message: '"/zend" is not a page of the site (a service page renamed or removed?)',
      },
    ]);
  });

  it('refuses a slug that a fixed page has, and a slug used twice', () => {
    const problems = checkContent([], fixed, [
      ...services,
      { file: 'src/content/services/contact-us.mdx', slug: 'contact' },
      { file: 'src/content/services/laravel2.mdx', slug: 'laravel' },
    ]);
    expect(problems.map((p) => [p.file, p.field])).toEqual([
      ['src/content/services/laravel.mdx', 'slug'],
      ['src/content/services/laravel2.mdx', 'slug'],
      ['src/content/services/contact-us.mdx', 'slug'],
    ]);
    expect(problems[0]!.message).toContain('also the slug of src/content/services/laravel2.mdx');
    expect(problems[2]!.message).toContain('the address of a fixed page (/contact)');
  });
});

describe('links to a redirected address', () => {
  // /zend renamed /zend-framework: redirects.yaml answers the old address with a 301.
  const renamed = [...services, { file: 'src/content/services/zend.mdx', slug: 'zend-framework' }];
  const linksToZend = [
    { file: 'src/content/data/technologies.yaml', id: 'zend', data: { href: '/zend' } },
    { file: 'src/content/services/iphone.mdx', data: {}, body: 'See [Zend](/zend/#top).' },
  ];

  it('stay valid while the redirect is there', () => {
    expect(
      checkContent(linksToZend, fixed, renamed, [{ from: '/zend', to: '/zend-framework' }]),
    ).toEqual([]);
  });

  it('break without it', () => {
    expect(checkContent(linksToZend, fixed, renamed).map((p) => p.field)).toEqual([
      'entry "zend", href',
      'body, line 1',
    ]);
  });
});

describe('checkRedirects', () => {
  it('names redirects.yaml, the entry by its old address, and the field', () => {
    const problems = checkRedirects(
      [
        { from: '/iphone', to: '/laravel' },
        { from: '/old', to: '/nope' },
        { from: '/a', to: '/b' },
        { from: '/b', to: '/about' },
      ],
      livePages(fixed, services),
    );
    expect(problems).toEqual([
      {
        file: 'src/content/data/redirects.yaml',
        field: 'entry "/iphone", from',
        path: 'entries.0.from',
        message: '/iphone is a page of the site: a redirect would hide it',
      },
      {
        file: 'src/content/data/redirects.yaml',
        field: 'entry "/old", to',
        path: 'entries.1.to',
        message: '/nope is not a page of the site',
      },
      {
        file: 'src/content/data/redirects.yaml',
        field: 'entry "/a", to',
        path: 'entries.2.to',
        message: '/b is itself redirected: send this one straight to /about',
      },
    ]);
  });
});

describe('routeOfPageFile', () => {
  it.each([
    ['/work/site/src/pages/index.astro', '/'],
    ['../pages/about.astro', '/about'],
    ['/x/src/pages/schedule/index.astro', '/schedule'],
    ['/x/src/pages/schedule/slots.json.ts', '/schedule/slots.json'],
    ['/x/src/pages/php/email.php.astro', '/php/email.php'],
    ['/x/src/pages/[service].astro', undefined],
  ])('%s is %s', (file, route) => {
    expect(routeOfPageFile(file)).toBe(route);
  });
});

describe('the messages', () => {
  const problem = {
    file: 'src/content/pages/home.yaml',
    field: 'sections.0.items.0.links.1.href',
    message: '"/nope" is not a page of the site',
    place: 'Page copy → home → Sections → 1st section → Items → 1st item → Links → 2nd link → Link',
  };

  it("the build's line: file, field, the place in the editor, what is wrong", () => {
    expect(describeProblems([problem]).split('\n')[1]).toBe(
      '  src/content/pages/home.yaml: sections.0.items.0.links.1.href (Page copy → home → Sections → 1st section → Items → 1st item → Links → 2nd link → Link): "/nope" is not a page of the site',
    );
  });

  it("the dev page's: the place in the editor first, then the file and the field", () => {
    expect(describeForStaff([problem]).split('\n').slice(1)).toEqual([
      '  Page copy → home → Sections → 1st section → Items → 1st item → Links → 2nd link → Link: "/nope" is not a page of the site',
      '      (src/content/pages/home.yaml: sections.0.items.0.links.1.href)',
    ]);
  });

  it('control characters from the content are written out, not sent to the terminal; a problem stays on its line', () => {
    const hostile = {
      file: 'src/content/data/technologies.yaml',
      field: 'entry "x\u001b[2J", href',
      message: '"/a\u001b]8;;http://evil\u0007" is not a page of the site\nsecond line',
    };
    for (const text of [describeProblems([hostile]), describeForStaff([hostile])]) {
      expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
      expect(text).toContain('\\u001b[2J');
      expect(text).toContain('\\u0007');
      expect(text).toContain('site second line');
    }
  });
});
