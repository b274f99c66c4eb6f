/** Typed, sorted access to the content collections, so pages stay thin. */
import { readFileSync } from 'node:fs';
import { getCollection, getEntry, type CollectionEntry } from 'astro:content';
import { parse as parseYaml } from 'yaml';
import { collections, serviceCategories } from '../content.config';
import {
  checkContent,
  checkRedirects,
  checkServiceSlugs,
  describeProblems,
  livePages,
  routeOfPageFile,
  type CheckedEntry,
  type ContentProblem,
} from './content-checks';
import type { Availability } from '../domain/booking';
import type { Redirect } from '../domain/redirects';
import redirectsText from '../content/data/redirects.yaml?raw';

/** The ids of a list file's entries, in the order of the file. */
const idsInFile = (filePath: string) =>
  (parseYaml(readFileSync(filePath, 'utf8')) as { entries: { id: string }[] }).entries.map(
    (entry) => String(entry.id),
  );

/**
 * A list file's entries in the order of the file: the order staff arrange in the editor (the
 * content store does not keep it).
 */
async function ordered<
  C extends
    | 'testimonials'
    | 'portfolio'
    | 'homePortfolio'
    | 'feedback'
    | 'pricing'
    | 'enquiryServices'
    | 'technologies',
>(name: C) {
  const entries = (await getCollection(name)) as CollectionEntry<C>[];
  const file = entries[0]?.filePath;
  if (!file) return entries;
  const place = new Map(idsInFile(file).map((id, index) => [id, index]));
  return entries.sort((a, b) => place.get(a.id)! - place.get(b.id)!);
}

export async function getSettings() {
  const entry = await getEntry('settings', 'site');
  if (!entry) throw new Error('src/content/data/settings.yaml needs an entry with id "site"');
  return entry.data;
}

/**
 * What the server's e-mails say of the agency (src/server/mail/templates.ts, MailContent): the
 * middleware passes it to the server (src/server/app.ts, provideMailContent), which does not read the content.
 */
export async function getMailContent() {
  const { brand, email } = await getSettings();
  const { hosts, location, timeZone, noticeHours } = await getAvailability();
  return {
    brand,
    email,
    hosts: hosts.map(({ id, name, email, meetingUrl, timeZone: own }) => ({
      id,
      name,
      email,
      timeZone: own ?? timeZone,
      ...(meetingUrl && { meetingUrl }),
    })),
    ...(location && { location }),
    noticeHours,
    timeZone,
  };
}

export async function getPage(id: string) {
  const entry = await getEntry('pages', id);
  if (!entry) throw new Error(`src/content/pages/${id}.yaml is missing`);
  return entry.data;
}

export type PageSection = Awaited<ReturnType<typeof getPage>>['sections'][number];

/** A page's section by id; a missing section is a content error worth failing the build for. */
export function section(page: Awaited<ReturnType<typeof getPage>>, id: string): PageSection {
  const found = page.sections.find((s) => s.id === id);
  if (!found) throw new Error(`The page content has no section with id "${id}"`);
  return found;
}

/**
 * The service pages, in order. Two of one slug, or a slug that is a fixed page's address, throw
 * (lib/content-checks.ts), naming the files: no page lists or renders one in place of the other,
 * and `astro dev` shows the error on /service and on the service pages, not only `astro build`.
 */
export async function getServices() {
  // Each service page is a file of its own: its `order` places it within its group.
  const services = (await getCollection('services')).sort((a, b) => a.data.order - b.data.order);
  assertNoProblems(checkServiceSlugs(serviceSlugs(services), fixedRoutes()));
  return services;
}

export const getTestimonials = () => ordered('testimonials');
export const getPortfolio = () => ordered('portfolio');
export const getHomePortfolio = () => ordered('homePortfolio');
export const getFeedback = () => ordered('feedback');
export const getPricing = () => ordered('pricing');
export const getEnquiryServices = () => ordered('enquiryServices');

let serviceLabels: Promise<string[]> | undefined;
/** The enquiry form's options, read once: the server checks every enquiry against them. */
export const getEnquiryServiceLabels = () =>
  (serviceLabels ??= getEnquiryServices().then((entries) =>
    entries.map((entry) => entry.data.label),
  ));
export const getTechnologies = () => ordered('technologies');

/** Services grouped by category, in the order of `serviceCategories`. */
export async function getServiceGroups() {
  const services = await getServices();
  return serviceCategories.map((category) => ({
    category,
    services: services.filter((s) => s.data.category === category),
  }));
}

/** When calls can be booked (src/content/data/availability.yaml). */
export async function getAvailability(): Promise<Availability> {
  const entry = await getEntry('availability', 'calls');
  if (!entry) throw new Error('src/content/data/availability.yaml needs an entry with id "calls"');
  const { id: _id, ...availability } = entry.data;
  return availability;
}

/**
 * The redirects of redirects.yaml, in the order of the file. Its text is bundled into the build
 * (Vite's `?raw`, fresh after each change in `astro dev`): src/pages/[...redirect].astro reads it
 * on demand, and the production server never reads src/content. Not getCollection: it warns of an
 * empty collection at each call, and an empty list is the usual case, read at every unknown address.
 * The content schema has checked each entry (src/content.config.ts); here only their shape.
 */
export function getRedirects(): Redirect[] {
  const entries = (parseYaml(redirectsText) as { entries?: unknown } | null)?.entries;
  return (Array.isArray(entries) ? (entries as Partial<Redirect>[]) : []).flatMap(
    ({ from, to } = {}) =>
      typeof from === 'string' && typeof to === 'string' ? [{ from, to }] : [],
  );
}

// The site's own pages, by their files: a link to one of them resolves.
const pageFiles = Object.keys(import.meta.glob('../pages/**/*.{astro,ts}'));
const fixedRoutes = () => pageFiles.flatMap((file) => routeOfPageFile(file) ?? []);

const serviceSlugs = (services: CollectionEntry<'services'>[]) =>
  services.map((entry) => ({ file: entry.filePath ?? entry.id, slug: entry.data.slug }));

const assertNoProblems = (problems: ContentProblem[]) => {
  if (problems.length > 0) throw new Error(describeProblems(problems));
};

/**
 * Fails the build when a link in the content leads nowhere, a service slug cannot be used, or a
 * redirect of redirects.yaml is wrong (src/lib/content-checks.ts), with one line per problem naming
 * the file and the field. A link to a redirect's old address is valid.
 */
export async function assertContentLinks() {
  const entries: CheckedEntry[] = [];
  for (const name of Object.keys(collections) as (keyof typeof collections)[]) {
    // Redirects hold no links; checkRedirects below checks them (and getCollection warns if empty).
    if (name === 'redirects') continue;
    for (const entry of await getCollection(name)) {
      const file = entry.filePath ?? `src/content (${name})`;
      entries.push({
        file,
        // A list file (src/content/data) holds many entries: the entry is named too.
        ...(file.includes('/data/') && { id: entry.id }),
        data: entry.data,
        ...('body' in entry && typeof entry.body === 'string' && { body: entry.body }),
      });
    }
  }
  const services = serviceSlugs(await getCollection('services'));
  const redirects = getRedirects();
  assertNoProblems([
    ...checkContent(entries, fixedRoutes(), services, redirects),
    ...checkRedirects(redirects, livePages(fixedRoutes(), services)),
  ]);
}
