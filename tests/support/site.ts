/** What the browser tests know about the site: its routes, read from the content files. */
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * The enquiry store of the server the browser tests run against (playwright.config.ts starts it), one
 * per port, so that two checkouts testing at once on one machine do not share (or wipe) each other's.
 */
export const e2eDatabase = join(
  tmpdir(),
  `agency-site-e2e-${process.env.TEST_PORT ?? 4399}`,
  'enquiries.sqlite',
);

export interface ServicePage {
  slug: string;
  title: string;
  category: string;
  hero: { button: 'inquire' | 'none' | { text: string; href: string } };
  intro: { description: string[] };
  testimonials?: boolean;
}

const dir = 'src/content/services';
export const servicePages: ServicePage[] = readdirSync(dir)
  .filter((file) => file.endsWith('.mdx'))
  .map((file) => parse(/^---\n([\s\S]*?)\n---/.exec(readFileSync(`${dir}/${file}`, 'utf8'))![1]!));

export const mainRoutes = ['/', '/about', '/service', '/contact', '/thankyou', '/portfolio'];
export const serviceRoutes = servicePages.map((p) => `/${p.slug}`);
export const allRoutes = [...mainRoutes, ...serviceRoutes];

/** The routes of spec §2's table, to check that content covers every one of them. */
export const specServiceRoutes = [
  '/iphone',
  '/android',
  '/kotlin',
  '/ipad',
  '/flutter',
  '/ionic',
  '/reactnative',
  '/pwa',
  '/xamarin',
  '/php',
  '/codeigniter',
  '/laravel',
  '/zend',
  '/yii',
  '/symfony',
  '/angular',
  '/nodejs',
  '/vuejs',
  '/reactjs',
  '/meteorjs',
  '/expressjs',
  '/angularpage',
  '/vuepage',
  '/reactpage',
  '/searchengineoptimization',
  '/socialmediamarketing',
  '/socialmediaoptimizing',
  '/payperclick',
  '/mobileappdesign',
  '/responsivedesign',
  '/designprototyping',
  '/psdtohtml',
];
