/**
 * The content schema: real content passes, and each kind of editor mistake
 * is rejected with the field named.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { collections } from '../../src/content.config';
import { assetNames } from '../../src/shared/asset-names';

type Schema = {
  safeParse(data: unknown): { success: boolean; error?: { issues: { path: PropertyKey[] }[] } };
};
const schemaOf = (name: keyof typeof collections) => collections[name].schema as unknown as Schema;

function frontmatter(path: string): Record<string, any> {
  const text = readFileSync(path, 'utf8');
  const match = /^---\n([\s\S]*?)\n---/.exec(text);
  if (!match) throw new Error(`${path} has no frontmatter`);
  return parse(match[1]!);
}

const good = () => frontmatter('src/content/services/iphone.mdx');

/** The dotted paths of the fields a value is rejected for. */
function failingFields(name: keyof typeof collections, data: unknown): string[] {
  const result = schemaOf(name).safeParse(data);
  expect(result.success).toBe(false);
  return result.error!.issues.map((issue) => issue.path.join('.'));
}

describe('services schema', () => {
  it('accepts a real service page', () => {
    expect(schemaOf('services').safeParse(good()).success).toBe(true);
  });

  it('accepts the good fixture', () => {
    expect(
      schemaOf('services').safeParse(frontmatter('tests/support/fixtures/content/good-service.mdx'))
        .success,
    ).toBe(true);
  });

  it('requires exactly 8 service tiles', () => {
    const data = good();
    data.services = data.services.slice(0, 7);
    expect(failingFields('services', data)).toContain('services');
    data.services = [...good().services, good().services[0]];
    expect(failingFields('services', data)).toContain('services');
  });

  it('requires exactly 4 stats', () => {
    const data = good();
    data.stats.pop();
    expect(failingFields('services', data)).toContain('stats');
  });

  it('rejects a mistyped key instead of ignoring it', () => {
    const data = good();
    data.hero.desciption = data.hero.description;
    expect(failingFields('services', data)).toContain('hero');
  });

  it('limits the SEO title and description', () => {
    const data = good();
    data.seo.title = 'x'.repeat(71);
    data.seo.description = 'Too short';
    expect(failingFields('services', data)).toEqual(
      expect.arrayContaining(['seo.title', 'seo.description']),
    );
  });

  it('rejects an icon that does not exist, and a malformed count', () => {
    const data = good();
    data.services[2].icon = 'no-such-icon';
    data.stats[0].count = 'fifteen';
    expect(failingFields('services', data)).toEqual(
      expect.arrayContaining(['services.2.icon', 'stats.0.count']),
    );
  });

  it('requires at least one intro paragraph', () => {
    const data = good();
    data.intro.description = [];
    expect(failingFields('services', data)).toContain('intro.description');
  });

  it('accepts the three kinds of hero button', () => {
    for (const button of ['inquire', 'none', { text: 'Get in Touch', href: '/contact' }]) {
      const data = good();
      data.hero.button = button;
      expect(schemaOf('services').safeParse(data).success).toBe(true);
    }
    const data = good();
    data.hero.button = { text: 'Go', href: 'javascript:alert(1)' };
    expect(failingFields('services', data)).toContain('hero.button.href');
  });
});

describe('data collections', () => {
  const entries = (file: string) =>
    (parse(readFileSync(`src/content/data/${file}`, 'utf8')) as { entries: any[] }).entries;

  it.each([
    ['testimonials', 'testimonials.yaml'],
    ['portfolio', 'portfolio.yaml'],
    ['homePortfolio', 'home-portfolio.yaml'],
    ['feedback', 'feedback.yaml'],
    ['pricing', 'pricing.yaml'],
    ['enquiryServices', 'enquiry-services.yaml'],
    ['technologies', 'technologies.yaml'],
    ['settings', 'settings.yaml'],
  ] as const)('%s: every entry of %s is valid', (name, file) => {
    for (const data of entries(file)) {
      const result = schemaOf(name).safeParse(data);
      expect(result.success, `${file} entry ${data.id}`).toBe(true);
    }
  });

  it('rejects an unknown portfolio tag', () => {
    const [project] = entries('portfolio.yaml');
    expect(failingFields('portfolio', { ...project, tags: ['website'] })).toContain('tags.0');
  });

  it('takes a screenshot (PNG or JPEG) by its name without the extension, and no missing one', () => {
    const [project] = entries('portfolio.yaml');
    for (const image of ['northgate-website', 'northgate-booking', 'fleetdesk']) {
      expect(schemaOf('portfolio').safeParse({ ...project, image }).success, image).toBe(true);
    }
    expect(failingFields('portfolio', { ...project, image: 'northgate-website.png' })).toContain(
      'image',
    );
  });

  it('rejects a pricing plan with a malformed price', () => {
    const [plan] = entries('pricing.yaml');
    expect(failingFields('pricing', { ...plan, price: '59.99' })).toContain('price');
  });

  it('takes a web address where a link goes out, never one that runs or shows what it holds', () => {
    const [settings] = entries('settings.yaml');
    const socials = (href: string) =>
      settings.socials.map((social: object, i: number) => (i === 0 ? { ...social, href } : social));
    for (const href of ['javascript:alert(document.domain)', 'data:text/html,x', 'ftp://x.example'])
      expect(failingFields('settings', { ...settings, socials: socials(href) }), href).toEqual([
        'socials.0.href',
      ]);
    expect(failingFields('settings', { ...settings, inquireUrl: 'javascript:alert(1)' })).toEqual([
      'inquireUrl',
    ]);
    expect(
      schemaOf('settings').safeParse({ ...settings, socials: socials('http://x.example/a') })
        .success,
    ).toBe(true);
  });

  it('rejects settings with only two social links', () => {
    const [settings] = entries('settings.yaml');
    expect(
      failingFields('settings', { ...settings, socials: settings.socials.slice(1) }),
    ).toContain('socials');
  });
});

describe('image names', () => {
  const folder = () => {
    const assets = mkdtempSync(join(tmpdir(), 'assets-'));
    mkdirSync(join(assets, 'portfolio'));
    mkdirSync(join(assets, 'icons'));
    return assets;
  };

  it('are the files a folder takes, without their extension', () => {
    const assets = folder();
    for (const file of ['shop.png', 'team.JPG', 'app.webp', 'map.svg', 'notes.txt', 'clip.gif']) {
      writeFileSync(join(assets, 'portfolio', file), '');
      writeFileSync(join(assets, 'icons', file), '');
    }
    expect(assetNames('portfolio', assets)).toEqual(['app', 'map', 'shop', 'team']);
    // Icons are line drawings: SVG only.
    expect(assetNames('icons', assets)).toEqual(['map']);
    rmSync(assets, { recursive: true });
  });

  it('refuse two files of one name, since content could not tell them apart', () => {
    const assets = folder();
    writeFileSync(join(assets, 'portfolio', 'shop.png'), '');
    writeFileSync(join(assets, 'portfolio', 'shop.svg'), '');
    expect(() => assetNames('portfolio', assets)).toThrow(
      'src/assets/portfolio has both shop.png and shop.svg',
    );
    rmSync(assets, { recursive: true });
  });
});
