/**
 * Keystatic's page component for the helper's build (./helper-build.ts), as @keystatic/astro makes
 * it for its own page (its internal keystatic-page.js, which the package does not export).
 */
import { makePage } from '@keystatic/astro/ui';
// @ts-expect-error: a virtual module of @keystatic/astro's Vite plugin (./helper-build.ts adds it).
import config from 'virtual:keystatic-config';

export const Keystatic = makePage(config);
