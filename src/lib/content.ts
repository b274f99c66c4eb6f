/** Typed, sorted access to the content collections, so pages stay thin. */
import { readFileSync } from 'node:fs';
import { getCollection, getEntry, type CollectionEntry } from 'astro:content';
import { parse as parseYaml } from 'yaml';
import {
  CONTENT_PROBLEMS,
  collections,
  serviceCategories,
  type SchemaProblem,
} from '../content.config';
import {
  checkContent,
  checkRedirects,
  checkServiceSlugs,
  describeForStaff,
  describeProblems,
  livePages,
  REDIRECTS_FILE,
  routeOfPageFile,
  type CheckedEntry,
  type ContentProblem,
} from './content-checks';
import { contentPlace } from '../content-model/places';
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
  const sorted = entries.sort((a, b) => place.get(a.id)! - place.get(b.id)!);
  await assertShown(sorted.map((entry, index) => checked(entry, index)));
  return sorted;
}

export async function getSettings() {
  const entry = await getEntry('settings', 'site');
  if (!entry) throw new Error('src/content/data/settings.yaml needs an entry with id "site"');
  // The header and the footer of every page show it.
  await assertShown([checked(entry)]);
  return entry.data;
}

/**
 * What the server's e-mails say of the agency (src/server/mail/mail-item.ts, MailContent): the
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
  await assertShown([checked(entry)]);
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
 * The section of a call page's answer `id`, in the words for e-mail on or off: when the handler's
 * `answer` says e-mail is off (`mailed: false`), its `<id>-unmailed` where the page has one, as no
 * e-mail of ours tells the prospect anything then (an answer that names no e-mail has one section).
 * An answer without `mailed` (the services could not be opened) has words true either way.
 */
export function answerSection(
  page: Awaited<ReturnType<typeof getPage>>,
  id: string,
  answer: object,
): PageSection {
  const unmailed =
    'mailed' in answer &&
    answer.mailed === false &&
    page.sections.find((s) => s.id === `${id}-unmailed`);
  return unmailed || section(page, id);
}

/**
 * The service pages, in order. Two of one slug, or a slug that is a fixed page's address, throw
 * (lib/content-checks.ts), naming the files: no page lists or renders one in place of the other,
 * and `astro dev` shows the error on /service and on the service pages, not only `astro build`.
 */
export async function getServices() {
  // Each service page is a file of its own: its `order` places it within its group.
  const services = (await getCollection('services')).sort((a, b) => a.data.order - b.data.order);
  const problems = checkServiceSlugs(serviceSlugs(services), fixedRoutes());
  if (problems.length > 0) {
    const described = checkedPerPage ? describeForStaff : describeProblems;
    throw new Error(described(placed(problems)));
  }
  return services;
}

/** A service page's own entry, for its page: its mistakes are that page's error in `astro dev`. */
export async function getServicePage(entry: CollectionEntry<'services'>) {
  await assertShown([checked(entry)]);
  return entry;
}

export const getTestimonials = () => ordered('testimonials');
export const getPortfolio = () => ordered('portfolio');
export const getHomePortfolio = () => ordered('homePortfolio');
export const getFeedback = () => ordered('feedback');
export const getPricing = () => ordered('pricing');
export const getEnquiryServices = () => ordered('enquiryServices');

let serviceLabels: Promise<string[]> | undefined;
/**
 * The enquiry form's options, read once: the server checks every enquiry against them. A mistake in
 * the list (`astro dev`) is not kept: the next request reads the list again.
 */
export const getEnquiryServiceLabels = () =>
  (serviceLabels ??= getEnquiryServices().then(
    (entries) => entries.map((entry) => entry.data.label),
    (error: unknown) => {
      serviceLabels = undefined;
      throw error;
    },
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
  await assertShown([checked(entry)]);
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

/**
 * A service page's address: its `slug`, or, when `astro dev` kept the page aside without one (a
 * value the schema refused), its file's name, as the editor names it, so that the page still
 * answers with its mistake there and the links to it do not break every page that has one.
 */
export const serviceAddress = (entry: CollectionEntry<'services'>): string =>
  typeof entry.data.slug === 'string' ? entry.data.slug : entry.id;

const serviceSlugs = (services: CollectionEntry<'services'>[]) =>
  services.map((entry) => ({ file: entry.filePath ?? entry.id, slug: serviceAddress(entry) }));

type AnyEntry = CollectionEntry<keyof typeof collections>;

/** An entry as the checks see it; `index`, its place in a list file. */
const checked = (entry: AnyEntry, index?: number): CheckedEntry => {
  const file = entry.filePath ?? `src/content (${entry.collection})`;
  return {
    file,
    // A list file (src/content/data) holds many entries: the entry is named too.
    ...(file.includes('/data/') && {
      id: entry.id,
      ...(index !== undefined && index >= 0 && { index }),
    }),
    data: entry.data,
    ...('body' in entry && typeof entry.body === 'string' && { body: entry.body }),
  };
};

/** What the schema found wrong with an entry that `astro dev` kept aside (src/content.config.ts). */
function schemaProblems({ file, id, index, data }: CheckedEntry): ContentProblem[] {
  const problems = (data as { [CONTENT_PROBLEMS]?: SchemaProblem[] } | undefined)?.[
    CONTENT_PROBLEMS
  ];
  return (problems ?? []).map(({ path, message }) => ({
    file,
    field: id ? `entry "${id}", ${path}` : path,
    message,
    ...(index !== undefined && { path: `entries.${index}.${path}` }),
  }));
}

/** Each problem's place in the editor, in its words (src/content-model/places.ts). */
function placed(
  problems: ContentProblem[],
  entries: readonly CheckedEntry[] = [],
): ContentProblem[] {
  if (problems.length === 0) return problems;
  const values = valuesByFile(entries);
  return problems.map((problem) => {
    // A link of an MDX body is 'body, line 3': the editor shows the body whole.
    const path = (problem.path ?? problem.field).split(',')[0]!;
    const place = contentPlace(problem.file, path, values.get(problem.file));
    return place ? { ...problem, place } : problem;
  });
}

/**
 * The values of each file the checked entries come from, as the editor's places read them (a list
 * file's entries at their places, `{ entries }`), so that a place names a list's items.
 */
function valuesByFile(entries: readonly CheckedEntry[]) {
  const values = new Map<string, unknown>();
  for (const { file, index, data } of entries) {
    if (index === undefined) {
      values.set(file, data);
      continue;
    }
    const list = (values.get(file) as { entries: unknown[] } | undefined) ?? { entries: [] };
    list.entries[index] = data;
    values.set(file, list);
  }
  return values;
}

/**
 * In `astro dev`, each page checks the entries it shows, and the build everything at once. Told by
 * Vite's hot-update API, which only the dev server's modules have (a build run with NODE_ENV=test,
 * as tests/build/ does, has import.meta.env.DEV too).
 */
export const checkedPerPage = !!import.meta.hot;

/**
 * In `astro dev`, the mistakes of the entries a page shows (a value the schema refuses, a link to
 * no page) are that page's error, in the editor's words; other pages still render. The build
 * checks everything at once instead (`assertContentLinks`), and Astro refuses the values.
 */
async function assertShown(entries: CheckedEntry[]) {
  if (!checkedPerPage) return;
  const files = new Set(entries.map(({ file }) => file));
  const services = serviceSlugs(await getCollection('services'));
  const problemsOf = (shown: CheckedEntry[]) => [
    ...shown.flatMap(schemaProblems),
    // The same check as the build's, on the entries shown: a slug's problem is its page's too.
    ...checkContent(shown, fixedRoutes(), services, getRedirects()).filter(({ file }) =>
      files.has(file),
    ),
  ];
  if (problemsOf(entries).length === 0) return;
  // A list file's entry's place, read from its file only now (the settings are read many times a page).
  const placedInFile = entries.map((entry) =>
    entry.id !== undefined && entry.index === undefined
      ? { ...entry, index: idsInFile(entry.file).indexOf(entry.id) }
      : entry,
  );
  throw new Error(describeForStaff(placed(problemsOf(placedInFile), placedInFile)));
}

/**
/**
 * Fails the build when a link in the content leads nowhere, a service slug cannot be used, or a
 * redirect of redirects.yaml is wrong (src/lib/content-checks.ts), with one line per problem naming
 * the file, the field and its place in the editor. A link to a redirect's old address is valid.
 */
export async function assertContentLinks() {
  const entries: CheckedEntry[] = [];
  for (const name of Object.keys(collections) as (keyof typeof collections)[]) {
    // Redirects hold no links; checkRedirects below checks them (and getCollection warns if empty).
    if (name === 'redirects') continue;
    const all = await getCollection(name);
    const file = all[0]?.filePath;
    const order = file?.includes('/data/') ? idsInFile(file) : [];
    for (const entry of all) entries.push(checked(entry, order.indexOf(entry.id)));
  }
  const services = serviceSlugs(await getCollection('services'));
  const redirects = getRedirects();
  const problems = [
    ...checkContent(entries, fixedRoutes(), services, redirects),
    ...checkRedirects(redirects, livePages(fixedRoutes(), services)),
  ];
  // The redirects too, so that a place names each by its addresses.
  const named = [
    ...entries,
    ...redirects.map((data, index) => ({ file: REDIRECTS_FILE, index, data })),
  ];
  if (problems.length > 0) throw new Error(describeProblems(placed(problems, named)));
}
