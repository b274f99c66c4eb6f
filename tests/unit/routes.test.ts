/** Every on-demand route of src/pages is in the HTTP server's list of methods (src/server/http/routes.ts). */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onDemandRoutes, routePath } from '../../src/server/http/routes';

const pagesDir = 'src/pages';

/** The address of each page file that opts out of prerendering. */
function onDemandPages(dir = pagesDir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return onDemandPages(path);
    if (!/export const prerender = false/.test(readFileSync(path, 'utf8'))) return [];
    const route = relative(pagesDir, path)
      .split(sep)
      .join('/')
      .replace(/\.(astro|ts)$/, '')
      .replace(/(^|\/)index$/, '');
    return [`/${route}`.replace(/(.)\/$/, '$1')];
  });
}

describe('the list of on-demand routes', () => {
  it('names exactly the pages that are rendered on demand', () => {
    expect(onDemandPages().sort()).toEqual(Object.keys(onDemandRoutes).sort());
  });

  it('matches a path as Astro does: escapes decoded, repeated and trailing slashes dropped', () => {
    expect(routePath('/sch%65dule//booked/?ref=1')).toBe('/schedule/booked');
    expect(routePath('/')).toBe('/');
    expect(routePath('/%E0%A4%A')).toBeUndefined();
  });
});
