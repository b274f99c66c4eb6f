/**
 * Writes dist/build.json after the build: the build's identity (a hash of its pages and its hashed
 * asset names, which change with any code or page change) and the paths of its pages. The field
 * data endpoint (src/server/vitals/) stamps each measurement with the identity, and keeps a page
 * path only if the build has it. Outside dist/client, so never served.
 */
import { createHash } from 'node:crypto';
import { readdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

export interface BuildIdentity {
  id: string;
  /** The public address of the site (astro.config.mjs's `site`), for the staff's report. */
  site: string | undefined;
  /** Every page's path as a visitor's address bar has it: '/', '/about', '/laravel'. */
  paths: string[];
}

export default function buildIdentity(): AstroIntegration {
  let site: string | undefined;
  return {
    name: 'build-identity',
    hooks: {
      'astro:config:done': ({ config }) => {
        site = config.site;
      },
      'astro:build:done': async ({ dir, pages }) => {
        const paths = pages.map(({ pathname }) => `/${pathname.replace(/\/$/, '')}`).sort();
        const assets = await readdir(new URL('_astro/', dir)).catch(() => [] as string[]);
        const id = createHash('sha256')
          .update(paths.join('\n'))
          .update(assets.sort().join('\n'))
          .digest('hex')
          .slice(0, 12);
        const identity: BuildIdentity = { id, site, paths };
        await writeFile(fileURLToPath(new URL('../build.json', dir)), JSON.stringify(identity));
      },
    },
  };
}
