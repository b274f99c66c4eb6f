/**
 * What the server knows of the build it serves, for field data: its identity and the paths of its
 * pages (dist/build.json, written by src/integrations/build-identity.ts). A path the build does not
 * have is counted as OTHER_PATH: a query string, a typo or a probe never becomes a row of its own.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OTHER_PATH } from '../../domain/vitals.ts';
import { routePath } from '../http/routes.ts';

export interface BuildPages {
  id: string;
  /** The path a measurement is kept under: the page's own, or OTHER_PATH. */
  pathOf(path: string): string;
}

export function readBuildPages(distDir: string): BuildPages {
  let id = 'unknown';
  let paths = new Set<string>();
  try {
    const build = JSON.parse(readFileSync(join(distDir, 'build.json'), 'utf8')) as {
      id: string;
      paths: string[];
    };
    id = build.id;
    paths = new Set(build.paths);
  } catch {
    // No build (astro dev): every path is OTHER_PATH.
  }
  return {
    id,
    pathOf: (path) => {
      const route = routePath(path);
      return route !== undefined && paths.has(route) ? route : OTHER_PATH;
    },
  };
}
