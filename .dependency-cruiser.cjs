/**
 * The import rules of src/ (ARCHITECTURE.md explains them). Checked by `npm run check:architecture`, which is
 * part of `npm test`; it reads .astro files too (their frontmatter and scripts), which dependency-cruiser
 * alone cannot parse.
 */
const browser = '^src/(islands|stores|offline|client|editor/browser)/';

/**
 * src/server/'s folders by floor, lowest first. A folder imports only from the floors below its own
 * (and the files at server/'s root below them all: config, log, …); the front door (app.ts, with
 * health.ts, what it opened said to /healthz) and the entry points (main.ts, cli.ts, editor-helper.ts)
 * stand above every floor. ARCHITECTURE.md shows the same order.
 */
const serverFloors = [
  ['requests'],
  ['store', 'http'],
  ['jobs'],
  ['calendars', 'mail', 'releases'],
  ['booking'],
  ['enquiries', 'vitals'],
  ['staff'],
];
const top = '^src/server/(app|health|main|cli|backup|copy-store|editor-helper)\\.ts$';
const serverFloorRules = serverFloors.flatMap((floor, index) =>
  floor.map((folder) => {
    const notBelow = serverFloors
      .slice(index)
      .flat()
      .filter((other) => other !== folder);
    return {
      name: `server-${folder}-imports-only-downward`,
      severity: 'error',
      comment: `src/server/${folder}/ stands below ${notBelow.join(', ')} and the front door: what it needs of them is handed to it (src/server/app.ts).`,
      from: { path: `^src/server/${folder}/` },
      to: { path: [`^src/server/(${notBelow.join('|') || '-'})/`, top] },
    };
  }),
);

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: each file of it can only be understood with all the others.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'domain-imports-nothing-of-the-site',
      severity: 'error',
      comment:
        'src/domain/ holds what the phone and the server share: it imports nothing else from src/, no astro:* module, no Node API.',
      from: { path: '^src/domain/' },
      to: { pathNot: ['^src/domain/', 'node_modules/astro/dist/zod\\.js$'] },
    },
    {
      name: 'domain-uses-no-platform-api',
      severity: 'error',
      comment: 'src/domain/ runs on the phone and on the server alike: no Node built-ins.',
      from: { path: '^src/domain/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'domain-uses-no-astro-module',
      severity: 'error',
      comment: 'src/domain/ is loaded by plain Node (npm start) too: no astro:* virtual module.',
      from: { path: '^src/domain/' },
      to: { couldNotResolve: true },
    },
    {
      name: 'shared-stands-on-domain-only',
      severity: 'error',
      comment:
        'src/shared/ holds the Node-side helpers that the build, the editor in `astro dev` and the server stand on: it imports only src/domain/.',
      from: { path: '^src/shared/' },
      to: { path: '^src/', pathNot: '^src/(shared|domain)/' },
    },
    {
      name: 'shared-uses-no-astro-module',
      severity: 'error',
      comment: 'src/shared/ is loaded by plain Node (npm start) too: no astro:* virtual module.',
      from: { path: '^src/shared/' },
      to: { couldNotResolve: true },
    },
    {
      name: 'build-code-never-imports-the-server',
      severity: 'error',
      comment:
        "The build's integrations and the visual editor run in `astro build` and `astro dev`, never in the server: what they share with it lives in src/domain/ or src/shared/.",
      from: { path: '^src/(integrations|editor|shared)/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'only-the-editor-imports-its-dev-server',
      severity: 'error',
      comment:
        "src/editor/dev-server/ runs in `astro dev` only, loaded by astro.config.mjs: the site, the server and the editor's browser code never import it (names both halves use are in src/editor/events.ts and routes.ts).",
      from: { pathNot: '^src/editor/dev-server/' },
      to: { path: '^src/editor/dev-server/' },
    },
    {
      name: 'content-schema-imports-no-site-code',
      severity: 'error',
      comment:
        'src/content.config.ts stands below src/lib/, which reads the content it defines: what it needs lives in src/domain/, src/shared/ or the content model (src/content-model/).',
      from: { path: '^src/content\\.config\\.ts$' },
      to: { path: '^src/(lib|islands|stores|components|layouts|pages|integrations|editor)/' },
    },
    {
      name: 'browser-code-never-imports-the-server',
      severity: 'error',
      comment:
        "Islands, stores, the service worker, browser helpers and the editor's scripts run in the browser: what they share with the server lives in src/domain/.",
      from: { path: browser },
      to: { path: '^src/server/' },
    },
    {
      name: 'browser-code-never-imports-astro-side-code',
      severity: 'error',
      comment:
        'src/lib/ reads content with astro:content at build or render time; it cannot run on the phone.',
      from: { path: browser },
      to: { path: '^src/(lib|components|layouts|pages)/' },
    },
    {
      name: 'content-code-never-imports-the-server',
      severity: 'error',
      comment:
        'The content schema, src/lib/ and the static components describe and render content; rules they share with the server live in src/domain/.',
      from: {
        path: ['^src/lib/', '^src/content\\.config\\.ts$', '^src/components/', '^src/layouts/'],
      },
      to: { path: '^src/server/' },
    },
    {
      name: 'server-never-imports-the-site',
      severity: 'error',
      comment:
        'src/server/ runs under plain Node (npm start): it cannot load Astro-side or browser code. Pages and the middleware call the server, not the other way round.',
      from: { path: '^src/server/' },
      to: {
        path: '^src/(lib|islands|components|layouts|pages|stores|offline|client|integrations|editor)/|^src/(middleware|content\\.config)\\.ts$',
      },
    },
    ...serverFloorRules,
    {
      name: 'server-root-files-import-no-folder',
      severity: 'error',
      comment:
        "The files at src/server/'s root (config, log, safe-text, networks, shutdown, json, call-token) are the ground every folder stands on.",
      from: { path: '^src/server/[^/]+\\.ts$', pathNot: top },
      to: { path: ['^src/server/[^/]+/', top] },
    },
    {
      name: 'content-model-stands-on-the-domain-alone',
      severity: 'error',
      comment:
        'src/content-model/ declares the content once for the build, the editor in the browser and plain Node (npm run docs:content): it imports only src/domain/ and zod.',
      from: { path: '^src/content-model/' },
      to: { pathNot: ['^src/(content-model|domain)/', 'node_modules/astro/dist/zod\\.js$'] },
    },
    {
      name: 'the-build-never-loads-the-editor',
      severity: 'error',
      comment:
        "The site's schema and src/lib/ are made from the content model without the editor: a build, its pages and the server never load Keystatic or React for them (a content mistake's place in the editor's words is src/content-model/places.ts).",
      from: { path: ['^src/content\\.config\\.ts$', '^src/content-model/', '^src/lib/'] },
      to: { path: '^src/editor/' },
    },
    {
      name: 'lib-never-imports-islands',
      severity: 'error',
      comment:
        'src/lib/ prepares data for pages and components; a type both need lives in src/domain/.',
      from: { path: '^src/lib/' },
      to: { path: '^src/(islands|stores)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.mjs', '.js', '.d.ts'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'node', 'default', 'types'],
    },
  },
};
