/**
 * Where the editor's server reads and writes. In `npm run edit` both are the project, the dev
 * server's folder. In the live site's helper process (../helper/, started by src/server/ with
 * `EDITING=on`) the content is the draft folder, the helper's working folder, where Keystatic's
 * local API reads and writes too (`process.cwd()`), while the site's own pages (src/pages, which a
 * draft has not) are the project's, named by EDITOR_SITE_ROOT.
 */
import { join } from 'node:path';

/** The folder holding src/content and src/assets that the editor reads and writes. */
export const contentRoot = () => process.cwd();

/** The project's folder, holding src/pages (the site's fixed pages) and the site's code. */
export const siteRoot = () => process.env.EDITOR_SITE_ROOT || process.cwd();

/** A path in the content's folder ('src/assets/' …). */
export const contentPath = (...parts: string[]) => join(contentRoot(), ...parts);
