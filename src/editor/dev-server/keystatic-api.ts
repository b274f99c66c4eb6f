/**
 * Keystatic's API route in the live site's helper (./helper-build.ts): @keystatic/astro's own
 * (`internal/keystatic-api.js`), but with its tree read made to bear a file moved while it runs
 * (./keystatic-reads.ts). Node must have the hook before it loads Keystatic's API, which a static
 * import would load first: so the API is imported once the hook is in place.
 */
import type { APIRoute } from 'astro';
import config from '../schema.ts';
import { tolerateFilesGoneWhileRead } from './keystatic-reads.ts';

tolerateFilesGoneWhileRead();
const { makeHandler } = await import('@keystatic/astro/api');

export const ALL: APIRoute = makeHandler({ config });
export const prerender = false;
