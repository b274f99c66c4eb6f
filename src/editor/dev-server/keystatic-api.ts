/**
 * Keystatic's API route in the live site's helper (./helper-build.ts): @keystatic/astro's own
 * (`internal/keystatic-api.js`), but with its tree read made to bear a file moved while it runs
 * (./keystatic-reads.ts) and a Save's files written whole (./keystatic-writes.ts). Node must have the
 * hooks before it loads Keystatic's API, which a static import would load first: so the API is
 * imported once the hooks are in place.
 */
import type { APIRoute } from 'astro';
import config from '../schema.ts';
import { tolerateFilesGoneWhileRead } from './keystatic-reads.ts';
import { writeSavesWhole } from './keystatic-writes.ts';

tolerateFilesGoneWhileRead();
writeSavesWhole();
const { makeHandler } = await import('@keystatic/astro/api');

export const ALL: APIRoute = makeHandler({ config });
export const prerender = false;
