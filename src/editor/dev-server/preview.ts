/**
 * The editor's "Preview" link of an entry (./server-pieces.ts injects it): sends the browser to the
 * page that shows the entry, on the dev site in `npm run edit`, in the draft's preview on the live
 * site. Keystatic's `previewUrl` is one pattern per
 * collection; the page copy's names are not all addresses ("home" is /), and a list is shown on
 * some page of its own.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { APIRoute } from 'astro';
import { PREVIEW_PAGE } from '../../domain/editing.ts';
import { contentPath } from './roots.ts';

export const prerender = false;

const services = () => contentPath('src/content/services');

/**
 * The address of a page copy's page: its name, but for the home page, the not-found page, and the
 * booking's pages, each copy named `schedule-<page>` for /schedule/<page>.
 */
function pageAddress(name: string) {
  if (name === 'home') return '/';
  if (name === 'not-found') return '/404';
  return `/${name.replace(/^schedule-/, 'schedule/')}`;
}

/** Where each list file is shown; the testimonials, on a service page that shows them. */
const listAddresses: Record<string, string> = {
  portfolio: '/portfolio',
  homePortfolio: '/',
  feedback: '/',
  pricing: '/',
  technologies: '/',
  settings: '/',
  enquiryServices: '/contact',
  availability: '/schedule',
};

async function pageWithTestimonials() {
  for (const file of (await readdir(services())).sort()) {
    const text = await readFile(join(services(), file), 'utf8');
    const slug = /^slug:\s*(\S+)/m.exec(text)?.[1];
    if (slug && !/^testimonials:\s*false/m.test(text)) return `/${slug}`;
  }
  return '/service';
}

export const GET: APIRoute = async ({ params, redirect }) => {
  const [kind, name = ''] = (params.entry ?? '').split('/');
  let address: string | undefined;
  if (kind === 'pages' && /^[a-z0-9-]+$/.test(name)) address = pageAddress(name);
  else if (kind === 'services' && /^[a-z0-9-]+$/.test(name)) address = `/${name}`;
  else if (kind === 'testimonials') address = await pageWithTestimonials();
  else if (kind && Object.hasOwn(listAddresses, kind)) address = listAddresses[kind];
  if (!address) return new Response('No such entry.', { status: 404 });
  // On the live site, the draft's own build of the page (src/server/staff/preview.ts); in
  // `npm run edit`, the dev site's page.
  return redirect(
    import.meta.env.DEV ? address : `${PREVIEW_PAGE}?${new URLSearchParams({ page: address })}`,
    302,
  );
};
