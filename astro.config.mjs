// @ts-check
import { readFileSync } from 'node:fs';
import { defineConfig } from 'astro/config';
import { parse } from 'yaml';
import mdx from '@astrojs/mdx';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import node from '@astrojs/node';
import contentModules from './src/integrations/content-modules.ts';
import contentWithoutCode from './src/integrations/content-without-code.ts';
import interactionDirective from './src/integrations/interaction-directive.ts';
import precompress from './src/integrations/precompress.ts';
import serviceWorker from './src/integrations/service-worker.ts';
import buildIdentity from './src/integrations/build-identity.ts';
import standaloneScript from './src/integrations/standalone-script.ts';
import singleStyle from './src/integrations/single-style.ts';
import svgSprites from './src/integrations/svg-sprites.ts';
import { FIRST_TIMES_SCRIPT } from './src/domain/api.ts';
import editor from './src/editor/dev-server/editor.ts';

// reCAPTCHA, when its site key (a public value) is given at build time: both forms show the widget, and
// every page's CSP allows its hosts, since every page has the Schedule a Call form. Without a key,
// nothing of it is built in.
const recaptchaSiteKey = process.env.RECAPTCHA_SITE_KEY ?? '';
// Field data (src/client/field-vitals.ts): on unless VITALS=off at build time, when no page loads it.
const vitals = process.env.VITALS !== 'off';
// /speed is in the sitemap (and the footer) only when settings.yaml lists it.
const { speedPage = false } = parse(readFileSync('./src/content/data/settings.yaml', 'utf8'))
  .entries[0];
// `astro dev` (`npm run dev`, `npm run edit`): the command the CLI was given.
const dev = process.argv[2] === 'dev';
// `npm run edit` (`astro dev --mode edit`): the visual editor, for marketers.
const editing =
  dev &&
  process.argv.some(
    (arg, i) => arg === '--mode=edit' || (arg === 'edit' && process.argv[i - 1] === '--mode'),
  );
const recaptchaScripts = [
  'https://www.google.com/recaptcha/',
  'https://www.gstatic.com/recaptcha/',
];
const recaptchaFrames = [
  'https://www.google.com/recaptcha/',
  'https://recaptcha.google.com/recaptcha/',
];

export default defineConfig({
  // The public address, for canonical links, Open Graph and the sitemap.
  site: 'https://www.northgate-digital.example',
  // Every page is prerendered; only the enquiry endpoints opt out with `prerender = false`.
  output: 'static',
  // A publish from the browser builds with its cache (optimised images, the content's store) in
  // the editing folder (src/server/releases/build.ts): node_modules may be read-only there, and
  // the images made once are reused by the next publish.
  ...(process.env.ASTRO_CACHE_DIR && { cacheDir: process.env.ASTRO_CACHE_DIR }),
  // The portfolio grid's drawings are sent as WebP (src/lib/images.ts), drawn at the width asked for
  // (src/lib/image-service.ts). Astro asks for the flag because a crafted SVG can be costly to draw:
  // these come from the repository and the editor's uploads, which only signed-in staff make and
  // which are cleaned at upload (src/domain/svg-clean.ts).
  // AVIF at sharp's effort 3, not 4: within 1 to 6 % of the bytes in a third of the time (the
  // portfolio's two screenshots and its first drawing, 400 to 1600 px: 5 s of a fresh build's CPU
  // against 15).
  image: {
    service: { entrypoint: './src/lib/image-service.ts', config: { avif: { effort: 3 } } },
    dangerouslyProcessSVG: true,
  },
  // Middleware mode: src/server/main.ts serves the files itself (compressed) and adds the security headers, and
  // hands Astro only what is not a file; the standalone handler looked for a file again on every request.
  // staticHeaders: the CSP of each prerendered page is sent as a header, not a <meta>. Off in `astro dev`,
  // which hashes no script: with it, Astro sent the policy there all the same, and it blocked every inline script.
  // bodySizeLimit: a backstop; every post is read by the gate (src/server/requests/post-gate.ts) at 32 KB,
  // but the visual editor's (EDITING=on), whose largest is a portfolio photo of 4 MB, sent as base64.
  adapter: node({ mode: 'middleware', staticHeaders: !dev, bodySizeLimit: 6 * 1024 * 1024 }),
  integrations: [
    // A content file's MDX text holding code is refused before MDX compiles it (src/shared/mdx-text.ts).
    contentWithoutCode(),
    mdx(),
    react(),
    interactionDirective(),
    // The visual editor at /keystatic, in `astro dev` only (`npm run edit`).
    editor(),
    // The service pages' MDX: none in the on-demand server build (only prerendered pages render it),
    // one chunk in the prerender build.
    contentModules(),
    sitemap({
      filter: (page) =>
        !page.includes('/thankyou') &&
        !page.includes('/offline') &&
        // The staff desk is for no search engine.
        !/^\/staff(\/|$)/.test(new URL(page).pathname) &&
        (speedPage || new URL(page).pathname.replace(/\/$/, '') !== '/speed'),
    }),
    // After the pages: its precache lists the build's files.
    serviceWorker(),
    // Browser scripts at fixed addresses, loaded by first moves: field data's, the dialog's first days.
    standaloneScript({
      name: 'field-vitals',
      source: new URL('./src/client/field-vitals.ts', import.meta.url),
      address: '/field-vitals.js',
      enabled: vitals,
    }),
    standaloneScript({
      name: 'first-times',
      source: new URL('./src/client/first-times.ts', import.meta.url),
      address: FIRST_TIMES_SCRIPT,
    }),
    buildIdentity(),
    // One <style> element a prerendered page: fewer hashes in its CSP header.
    singleStyle(),
    // The SVG files that hold several of a page's pictures (src/shared/svg-sprite.ts).
    svgSprites(),
    // Last, so that the sitemap and the service worker are compressed too.
    precompress(),
  ],
  server: { host: '127.0.0.1', port: 4321 },
  // A page previewed from the editor is the page as visitors see it: no developer toolbar on it.
  devToolbar: { enabled: !editing },
  // No code blocks in the content; Shiki's inline styles would also clash with the CSP.
  markdown: { syntaxHighlight: false },
  security: {
    // The enquiry endpoints make their own cross-site check, which lets same-origin clients without
    // an Origin header through and answers with `Vary: Origin, Sec-Fetch-Site`.
    checkOrigin: false,
    csp: {
      // Scripts and styles are allowed by hash only (no 'unsafe-inline', so no style attribute either).
      // Astro lists every hash of the site on every page; the server keeps each prerendered page's own
      // (src/server/http/server.ts ownInlineHashes), so that its first response fits one round trip.
      styleDirective: { resources: ["'self'"] },
      ...(recaptchaSiteKey && { scriptDirective: { resources: ["'self'", ...recaptchaScripts] } }),
      directives: [
        "default-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        ...(recaptchaSiteKey
          ? [/** @type {`frame-src ${string}`} */ (`frame-src ${recaptchaFrames.join(' ')}`)]
          : []),
      ],
    },
  },
  // All CSS inline: a page paints from its first response, with no stylesheet request in the way.
  build: { inlineStylesheets: 'always' },
  // Scoped styles by class rather than by a data attribute on every element: smaller pages.
  scopedStyleStrategy: 'class',
  vite: {
    ...(process.env.ASTRO_CACHE_DIR && { cacheDir: `${process.env.ASTRO_CACHE_DIR}/vite` }),
    define: {
      __RECAPTCHA_SITE_KEY__: JSON.stringify(recaptchaSiteKey),
      __VITALS__: JSON.stringify(vitals),
    },
    build: {
      rolldownOptions: {
        // MDX modules carry a "use astro:head-inject" directive that rolldown warns about for each file.
        checks: { moduleLevelDirective: false },
        // The first moves import their names from src/domain/ (hand-over.ts, forms.ts) and must still
        // import nothing once built, or Astro would not inline them: constants are written in where
        // they are used, and src/domain/, which has no side effects, is dropped where it is not.
        optimization: { inlineConst: { mode: 'all' } },
        treeshake: { moduleSideEffects: (id) => !id.includes('/src/domain/') },
      },
    },
  },
});
